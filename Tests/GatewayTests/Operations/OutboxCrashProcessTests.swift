import Foundation
import Gateway
import Glibc
import HTTP1
import Synchronization
import Testing

/// The built binary killed with SIGKILL while writes are accepted and replayed (one write per
/// resource held in flight at the upstream), then restarted on the same folder (issue 11 §3): no
/// acknowledged write is lost, each resource's writes reach the upstream in the order they were
/// acknowledged, and only the writes in flight at the kill are sent twice, with the same
/// idempotency key (which an upstream honouring keys applies once).
@Suite(.timeLimit(.minutes(1)))
struct OutboxCrashProcessTests {
    /// Whether the upstream is down, and the idempotency keys it took, per path, in arrival order.
    private final class Upstream: Sendable {
        struct State {
            var down = true
            var taken: [String: [String]] = [:]
        }
        let state = Mutex(State())
    }

    private static let paths = ["/items/a", "/items/b", "/items/c", "/items/d"]

    private static func config(upstream: String, folder: URL) -> String {
        """
        {"server": {"port": 0},
         "cache": {"disk": {"path": "\(folder.appendingPathComponent("cache").path)"}},
         "services": {"up": {"baseURL": "\(upstream)"}},
         "repositories": {"items": {"route": "/items/{id}", "service": "up", "methods": ["GET", "PUT"],
           "writes": {"queue": {"retryBase": 0.02, "retryMax": 0.1, "parallelKeys": 4}}}}}
        """
    }

    /// Sends write `index` (to one of four resources in turn); its key when it was acknowledged.
    private static func write(_ index: Int, port: Int) async -> (path: String, key: String)? {
        let path = paths[index % paths.count]
        let key = "w-\(index)"
        let answer = try? await EndToEndClient.send(
            .put, path, port: port, headers: ["Idempotency-Key": key, "Content-Type": "text/plain"], body: "\(index)")
        guard let status = answer?.status, [200, 201, 202].contains(status) else { return nil }
        return (path, key)
    }

    @Test func killedWhileWritingAndReplaying_LosesNoAcknowledgedWrite_AndKeepsEachResourcesOrder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rds-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = Upstream()
        let upstream = try await EndToEndUpstream.start()
        for path in Self.paths {
            upstream.on(path) { request, _ in
                let key = request.headers["Idempotency-Key"] ?? "none"
                let down = record.state.withLock { state in
                    if !state.down { state.taken[path, default: []].append(key) }
                    return state.down
                }
                var reply = EndToEndUpstream.Reply(status: down ? 503 : 201, headers: ["Content-Type": "text/plain"])
                reply.waitForGate = !down
                return reply
            }
        }
        let file = folder.appendingPathComponent("gateway.json")
        try Data(Self.config(upstream: upstream.baseURL, folder: folder).utf8).write(to: file)

        var acknowledged: [(path: String, key: String)] = []
        let first = try await GatewayProcess(config: file)
        for index in 0..<20 { if let ack = await Self.write(index, port: first.port) { acknowledged.append(ack) } }
        record.state.withLock { $0.down = false }
        for index in 20..<40 { if let ack = await Self.write(index, port: first.port) { acknowledged.append(ack) } }
        await upstream.waitForArrivals(Self.paths.count)  // each resource's first write, held in flight
        first.send(SIGKILL)
        _ = await first.exitStatus()
        let inFlightAtKill = record.state.withLock { $0.taken }

        upstream.openGate()

        let second = try await GatewayProcess(config: file)
        for index in 40..<48 { if let ack = await Self.write(index, port: second.port) { acknowledged.append(ack) } }
        var arrivals = 1
        while !acknowledged.allSatisfy({ ack in record.state.withLock { $0.taken[ack.path]?.contains(ack.key) == true } }) {
            await upstream.waitForArrivals(arrivals)
            arrivals += 1
        }
        second.send(SIGTERM)
        _ = await second.exitStatus()
        await upstream.stop()

        #expect(acknowledged.count == 48)
        #expect(inFlightAtKill.values.map(\.count) == [1, 1, 1, 1])
        let taken = record.state.withLock { $0.taken }
        for path in Self.paths {
            let expected = acknowledged.filter { $0.path == path }.map(\.key)
            var firstArrivals: [String] = []
            for key in taken[path] ?? [] where !firstArrivals.contains(key) { firstArrivals.append(key) }
            #expect(firstArrivals == expected, "\(path): the upstream took the writes out of order")
        }
        for path in Self.paths {
            let sent = taken[path] ?? []
            let twice = Set(sent.filter { key in sent.filter { $0 == key }.count > 1 })
            #expect(twice == Set(inFlightAtKill[path] ?? []), "\(path): only the write in flight at the kill is sent twice")
        }
    }
}
