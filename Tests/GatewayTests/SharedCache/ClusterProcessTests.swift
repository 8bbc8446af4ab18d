import Foundation
import HTTP1
import RDSTesting
import Testing

/// Three `rds-gateway` processes (the built binary) sharing one real `redis-server`: a miss on
/// one is a hit on the others, and a purge on one reaches the others.
@Suite(.enabled(if: RedisTestServer.isEnabled, "needs redis-server (apt-get install redis-server)"))
struct ClusterProcessTests {
    @Test(.timeLimit(.minutes(1)))
    func threeProcesses_ShareHitsAndPurges() async throws {
        let redis = try await RedisTestServer.start()
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, call in
            EndToEndUpstream.Reply(headers: ["Content-Type": "application/json", "Cache-Control": "max-age=300"], body: #"{"call":\#(call)}"#)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rds-cluster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("cluster.json")
        try Data(
            """
            {"cache": {"shared": {"redis": {"url": "\(redis.url)", "connectTimeout": 5, "commandTimeout": 5}}},
             "services": {"up": {"baseURL": "\(upstream.baseURL)"}},
             "repositories": {"items": {"route": "/items/{id}", "service": "up"}}}
            """.utf8
        ).write(to: config)
        var replicas: [GatewayProcess] = []
        for _ in 0..<3 { replicas.append(try await GatewayProcess(config: config)) }
        for replica in replicas { #expect(await replica.event(named: "shared_cache_stream_joined") != nil) }

        let caches = try await replicas.asyncMap { try await EndToEndClient.send(.get, "/items/a", port: $0.port).headers["X-Cache"] }
        #expect(caches == ["MISS", "HIT", "HIT"])
        #expect(upstream.calls("/items/a") == 1)

        let purge = try await EndToEndClient.send(.delete, "/admin/repositories/items/cache?path=/items/a", port: replicas[2].port)
        #expect(purge.status == 200)
        var gone = false
        for _ in 0..<500 where !gone {
            let state = try await EndToEndClient.send(.get, "/admin/repositories/items/state?path=/items/a", port: replicas[0].port)
            gone = state.text.contains(#""state":"initialized""#)
            if !gone { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(gone)
        #expect(try await EndToEndClient.send(.get, "/items/a", port: replicas[0].port).text == #"{"call":2}"#)
        for replica in replicas { replica.stop() }
        await upstream.stop()
        await redis.stop()
    }
}

extension Array {
    /// The results of `transform` on each element, one after another.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
