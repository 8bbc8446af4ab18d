import Foundation
import Gateway
import HTTP1
import Testing

/// A repository's disk folder breaks under a running gateway (replaced by a plain file, which
/// fails every write even as root, or removed): caching goes on in memory, the fault is reported
/// in `/health/ready`, `/admin/repositories` and `/metrics`, and the folder comes back.
struct EndToEndDiskFaultTests {
    private static let fresh: HTTPHeaders = [
        "Content-Type": "application/json", "Cache-Control": "max-age=10", "ETag": "\"v1\"",
    ]

    private func metrics(_ gateway: EndToEndGateway) async throws -> [PrometheusTextParser.Family] {
        try PrometheusTextParser.parse(try await gateway.get("/metrics").text)
    }

    private func adminDisk(_ gateway: EndToEndGateway) async throws -> [String: Any] {
        let list = try await gateway.get("/admin/repositories")
        let repositories = try #require(JSONSerialization.jsonObject(with: Data(list.text.utf8)) as? [[String: Any]])
        return try #require(repositories.first?["disk"] as? [String: Any])
    }

    /// Replaces the folder at `url` by a plain file.
    private func breakFolder(_ url: URL) throws {
        try FileManager.default.removeItem(at: url)
        try Data("not a folder".utf8).write(to: url)
    }

    @Test func get_KeepsCachingAndReportsTheDiskDegraded_UntilTheFolderCanBeWrittenAgain() async throws {
        try await withTemporaryDirectory { folder in
            let upstream = try await EndToEndUpstream.start()
            for path in ["/items/a", "/items/b"] {
                upstream.on(path) { _, _ in EndToEndUpstream.Reply(headers: Self.fresh, body: #"{"n":1}"#) }
            }
            let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL, disk: folder)
            let items = folder.appendingPathComponent("items")
            try breakFolder(items)

            let miss = try await gateway.get("/items/a")
            let hit = try await gateway.get("/items/a")
            // The miss's entry is written behind its answer: the failed write is seen once tried.
            var ready = try await gateway.get("/health/ready")
            for _ in 0..<500 where ready.json["disk_cache"] as? String != "degraded" {
                try await Task.sleep(for: .milliseconds(10))
                ready = try await gateway.get("/health/ready")
            }
            let degradedMetrics = try await metrics(gateway)
            let degradedAdmin = try await adminDisk(gateway)

            #expect(miss.status == 200)
            #expect(miss.headers["X-Cache"] == "MISS")
            #expect(hit.headers["X-Cache"] == "HIT")
            #expect(upstream.calls("/items/a") == 1)
            #expect(ready.status == 200)
            #expect(ready.json["disk_cache"] as? String == "degraded")
            let levels = try #require(ready.json["disk_levels"] as? [[String: Any]])
            #expect(levels.count == 1)
            #expect(levels.first?["repository"] as? String == "items")
            #expect(levels.first?["status"] as? String == "degraded")
            #expect(levels.first?["write_failures"] as? Int == 1)
            #expect((levels.first?["last_error"] as? String)?.hasSuffix("Not a directory") == true)
            #expect(value(in: degradedMetrics, "rds_gateway_disk_degraded", ["repository": "items"]) == 1)
            #expect(value(in: degradedMetrics, "rds_gateway_disk_write_failures_total", ["repository": "items"]) == 1)
            #expect(degradedAdmin["status"] as? String == "degraded")
            #expect(degradedAdmin["writeFailures"] as? Int == 1)

            try FileManager.default.removeItem(at: items)
            let recovered = try await gateway.get("/items/b")
            var recoveredAdmin = try await adminDisk(gateway)
            for _ in 0..<500 where recoveredAdmin["entries"] as? Int != 1 {
                try await Task.sleep(for: .milliseconds(10))
                recoveredAdmin = try await adminDisk(gateway)
            }
            let readyAgain = try await gateway.get("/health/ready")
            let recoveredMetrics = try await metrics(gateway)

            #expect(recovered.headers["X-Cache"] == "MISS")
            #expect(try FileManager.default.contentsOfDirectory(atPath: items.path).count == 1)
            #expect(readyAgain.json["disk_cache"] as? String == "writable")
            #expect(value(in: recoveredMetrics, "rds_gateway_disk_degraded", ["repository": "items"]) == 0)
            #expect(value(in: recoveredMetrics, "rds_gateway_disk_write_failures_total", ["repository": "items"]) == 1)
            #expect(recoveredAdmin["status"] as? String == "ok")
            #expect(recoveredAdmin["entries"] as? Int == 1)
            await gateway.stop()
            await upstream.stop()
        }
    }

    @Test func get_RecreatesARemovedRepositoryFolder() async throws {
        try await withTemporaryDirectory { folder in
            let upstream = try await EndToEndUpstream.start()
            upstream.on("/items/a") { _, _ in EndToEndUpstream.Reply(headers: Self.fresh, body: #"{"n":1}"#) }
            let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL, disk: folder)
            let items = folder.appendingPathComponent("items")
            try FileManager.default.removeItem(at: items)

            _ = try await gateway.get("/items/a")
            let ready = try await gateway.get("/health/ready")

            #expect(try FileManager.default.contentsOfDirectory(atPath: items.path).count == 1)
            #expect(ready.json["disk_cache"] as? String == "writable")
            #expect(try await adminDisk(gateway)["entries"] as? Int == 1)
            await gateway.stop()
            await upstream.stop()
        }
    }

    @Test func get_ServesStaleIfError_AfterARevalidationCouldNotWriteTheDisk() async throws {
        try await withTemporaryDirectory { folder in
            let upstream = try await EndToEndUpstream.start()
            upstream.on("/items/d") { _, call in
                switch call {
                case 1: EndToEndUpstream.Reply(headers: Self.fresh, body: #"{"d":1}"#)
                case 2: EndToEndUpstream.Reply(status: 304, headers: Self.fresh)
                default: EndToEndUpstream.Reply(status: 503)
                }
            }
            let gateway = try await EndToEndGateway.start(
                upstream: upstream.baseURL, settings: { $0.staleIfError = 600 }, disk: folder)
            _ = try await gateway.get("/items/d")
            try breakFolder(folder.appendingPathComponent("items"))

            gateway.clock.advance(by: 20)
            let revalidated = try await gateway.get("/items/d")
            gateway.clock.advance(by: 20)
            let stale = try await gateway.get("/items/d")

            #expect(revalidated.headers["X-Cache"] == "REVALIDATED")
            #expect(stale.status == 200)
            #expect(stale.headers["X-Cache"] == "STALE")
            #expect(stale.text == #"{"d":1}"#)
            #expect(upstream.calls("/items/d") == 3)
            await gateway.stop()
            await upstream.stop()
        }
    }
}
