import Foundation
import Gateway
import HTTP1
import RDSTesting
import Testing

/// Metrics, request ids and readiness through the whole gateway (Bootstrap, real sockets, port 0,
/// manual clock) in front of a scripted upstream.
struct OperationsEndToEndTests {
    private static let fresh: HTTPHeaders = ["Content-Type": "application/json", "Cache-Control": "max-age=10"]

    private func metrics(_ gateway: EndToEndGateway) async throws -> [PrometheusTextParser.Family] {
        let response = try await gateway.get("/metrics")
        #expect(response.status == 200)
        return try PrometheusTextParser.parse(response.text)
    }

    @Test func metrics_FollowAScriptedSequenceOfHitsMissesStaleAnswersAndErrors() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, _ in EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60"], body: "{}") }
        upstream.on("/items/b") { _, call in
            call == 1
                ? EndToEndUpstream.Reply(headers: Self.fresh, body: #"{"b":1}"#) : EndToEndUpstream.Reply(status: 503)
        }
        upstream.on("/items/d") { _, call in
            var headers = Self.fresh
            headers["ETag"] = "\"d1\""
            return EndToEndUpstream.Reply(status: call == 1 ? 200 : 304, headers: headers, body: call == 1 ? "{}" : "")
        }
        upstream.on("/items/c") { _, _ in EndToEndUpstream.Reply(status: 503) }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.staleIfError = 600
        }

        var answers: [String?] = []
        for path in ["/items/a", "/items/a", "/items/b", "/items/d"] {
            answers.append(try await gateway.get(path).headers["X-Cache"])
        }
        gateway.clock.advance(by: 20)
        for path in ["/items/b", "/items/d"] {
            answers.append(try await gateway.get(path).headers["X-Cache"])
        }
        let failed = try await gateway.get("/items/c")
        let families = try await metrics(gateway)

        #expect(answers == ["MISS", "HIT", "MISS", "MISS", "STALE", "REVALIDATED"])
        #expect(failed.status >= 500)
        func lookups(_ result: String) -> Double? {
            value(in: families, "rds_gateway_cache_lookups_total", ["repository": "items", "result": result])
        }
        #expect(lookups("hit") == 1)
        #expect(lookups("miss") == 3)
        #expect(lookups("stale") == 1)
        #expect(lookups("revalidated") == 1)
        #expect(lookups("bypass") == 0)
        #expect(value(in: families, "rds_gateway_upstream_requests_total", ["service": "up"]) == 6)
        #expect(value(in: families, "rds_gateway_upstream_errors_total", ["service": "up", "code": "http_503"]) == 2)
        let route = ["route": "/items/{id}", "method": "GET"]
        #expect(value(in: families, "rds_gateway_http_requests_total", route.merging(["status": "200"]) { $1 }) == 6)
        #expect(
            value(in: families, "rds_gateway_http_requests_total", route.merging(["status": "\(failed.status)"]) { $1 })
                == 1)
        let duration = "rds_gateway_upstream_request_duration_seconds"
        #expect(value(in: families, duration, ["service": "up"], sample: duration + "_count") == 6)
        #expect(value(in: families, "rds_gateway_cache_entries", ["repository": "items", "level": "memory"]) == 3)
        await gateway.stop()
        await upstream.stop()
    }

    @Test func coalescedWaiters_CountReadsThatJoinedTheUpstreamCallInFlight() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/k") { _, _ in EndToEndUpstream.Reply(headers: Self.fresh, body: "{}", waitForGate: true) }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)

        let readers = (0..<5).map { _ in Task { try await gateway.get("/items/k") } }
        await upstream.waitForArrivals(1)
        var joined: Double?
        for _ in 0..<500 where joined != 4 {
            joined = value(
                in: try await metrics(gateway), "rds_gateway_cache_coalesced_waiters_total", ["repository": "items"])
            if joined != 4 { try await Task.sleep(for: .milliseconds(10)) }
        }
        upstream.openGate()
        for reader in readers { #expect(try await reader.value.status == 200) }

        #expect(joined == 4)
        #expect(upstream.calls("/items/k") == 1)
        await gateway.stop()
        await upstream.stop()
    }

    @Test func requestID_RoundTripsAndReachesTheUpstream() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, _ in EndToEndUpstream.Reply(headers: Self.fresh, body: "{}") }
        upstream.on("/items/b") { _, _ in EndToEndUpstream.Reply(headers: Self.fresh, body: "{}") }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)

        let kept = try await gateway.get("/items/a", headers: ["X-Request-ID": "trace-99.a_b"])
        let replaced = try await gateway.get("/items/b", headers: ["X-Request-ID": "not valid!"])
        let hit = try await gateway.get("/items/a")

        #expect(kept.headers["X-Request-ID"] == "trace-99.a_b")
        #expect(upstream.requests("/items/a").first?.headers["X-Request-ID"] == "trace-99.a_b")
        let generated = try #require(replaced.headers["X-Request-ID"])
        #expect(generated != "not valid!")
        #expect(upstream.requests("/items/b").first?.headers["X-Request-ID"] == generated)
        #expect(hit.headers["X-Request-ID"].map { $0.count == 32 && $0 != generated } == true)
        await gateway.stop()
        await upstream.stop()
    }

    @Test func ready_ListsWarmUpFailures_WithTheirErrorCodes() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/ok") { _, _ in EndToEndUpstream.Reply(headers: Self.fresh, body: "{}") }
        upstream.on("/items/down") { _, _ in EndToEndUpstream.Reply(status: 503, body: "{}") }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.warmUp = ["/items/ok", "/items/down"]
        }
        await Bootstrap.warmUp(container: gateway.container)
        let after = try await gateway.get("/health/ready")

        #expect(after.status == 200)  // the key is loaded on demand later: not a reason to refuse traffic
        #expect(after.json["warm_up"] as? String == "failed")
        let failures = try #require(after.json["warm_up_failures"] as? [[String: String]])
        #expect(failures.count == 1)
        #expect(failures.first?["repository"] == "items")
        #expect(failures.first?["key"]?.contains("/items/down") == true)
        #expect(failures.first?["error"] == "upstream_bad_response")
        let logged = (gateway.container.logger as? RecordingLogger)?.entries.filter { $0.event == "warm_up" }
        #expect(logged?.compactMap { $0.fields["error"] } == [.string("upstream_bad_response")])
        await gateway.stop()
        await upstream.stop()
    }

    /// `server.requireWarmUp: true` in the file: the same failed warm-up makes `/health/ready` 503,
    /// and the warm-up is tried again (after 1 s on the clock) until it loads every key.
    @Test func ready_Is503AfterAFailedWarmUp_UntilARetryLoadsEveryKey_WhenRequired() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/flaky") { _, call in
            call == 1 ? EndToEndUpstream.Reply(status: 503, body: "{}") : EndToEndUpstream.Reply(headers: Self.fresh, body: "{}")
        }
        let file = """
            {"server": {"port": 0, "requireWarmUp": true},
             "services": {"up": {"baseURL": "\(upstream.baseURL)"}},
             "repositories": {"items": {"route": "/items/{id}", "service": "up", "warmUp": ["/items/flaky"]}}}
            """
        let configuration = try ConfigurationLoader(environment: [:]).load(data: Data(file.utf8), file: "required.json")
        #expect(configuration.server.requireWarmUp)
        let gateway = try await EndToEndGateway.start(configuration: configuration)
        let warmUp = Task { await Bootstrap.warmUp(container: gateway.container) }
        for _ in 0..<2_000 where gateway.container.readiness.report().warmUp != "failed" {
            try await Task.sleep(for: .milliseconds(2))
        }
        let failed = try await gateway.get("/health/ready")
        #expect(failed.status == 503)
        #expect(failed.json["warm_up"] as? String == "failed")
        // The retry waits on the manual clock: advance it until the second round has run.
        for _ in 0..<2_000 where upstream.calls("/items/flaky") < 2 {
            gateway.clock.advance(by: 1)
            try await Task.sleep(for: .milliseconds(2))
        }
        try #require(upstream.calls("/items/flaky") == 2)
        await warmUp.value
        let ready = try await gateway.get("/health/ready")
        #expect(ready.status == 200)
        #expect(ready.json["warm_up"] as? String == "done")
        #expect(upstream.calls("/items/flaky") == 2)
        await gateway.stop()
        await upstream.stop()
    }

    @Test func ready_Is503WhileWarmUpRuns_ThenReady() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/w") { _, _ in EndToEndUpstream.Reply(headers: Self.fresh, body: "{}", waitForGate: true) }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.warmUp = ["/items/w"]
        }

        let warmUp = Task { await Bootstrap.warmUp(container: gateway.container) }
        await upstream.waitForArrivals(1)
        let during = try await gateway.get("/health/ready")
        let live = try await gateway.get("/health")
        upstream.openGate()
        await warmUp.value
        let after = try await gateway.get("/health/ready")

        #expect(during.status == 503)
        #expect(during.json["warm_up"] as? String == "running")
        #expect(live.status == 200)
        #expect(after.status == 200)
        #expect(after.json["warm_up"] as? String == "done")
        #expect(after.json["warm_up_failures"] == nil)
        let upstreams = try #require(after.json["upstreams"] as? [[String: Any]])
        #expect(upstreams.first?["service"] as? String == "up")
        #expect(upstreams.first?["status"] as? String == "ok")
        await gateway.stop()
        await upstream.stop()
    }

    @Test func ready_Is503WhileTheDiskCacheFolderIsUnwritable() async throws {
        try await withTemporaryDirectory { folder in
            let cache = folder.appendingPathComponent("cache")
            let upstream = try await EndToEndUpstream.start()
            let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL, disk: cache)
            let before = try await gateway.get("/health/ready")

            try FileManager.default.removeItem(at: cache)
            try Data("not a folder".utf8).write(to: cache)
            let broken = try await gateway.get("/health/ready")
            try FileManager.default.removeItem(at: cache)
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: false)
            let restored = try await gateway.get("/health/ready")

            #expect(before.status == 200)
            #expect(broken.status == 503)
            #expect(broken.json["disk_cache"] as? String == "unwritable")
            #expect(restored.status == 200)
            await gateway.stop()
            await upstream.stop()
        }
    }

    @Test func metricsAndAdmin_ReportEntriesBytesAndEvictionsOfTheDiskLevel() async throws {
        try await withTemporaryDirectory { folder in
            let upstream = try await EndToEndUpstream.start()
            for path in ["/items/a", "/items/b"] {
                upstream.on(path) { _, _ in EndToEndUpstream.Reply(headers: Self.fresh, body: #"{"n":1}"#) }
            }
            let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL, disk: folder)
            _ = try await gateway.get("/items/a")
            _ = try await gateway.get("/items/b")
            // A cold miss's entry is written to disk behind its answer (in the renewals' next
            // batch): the level counts it once written, within a few milliseconds.
            let disk = ["repository": "items", "level": "disk"]
            var families = try await metrics(gateway)
            for _ in 0..<500 where value(in: families, "rds_gateway_cache_entries", disk) != 2 {
                try await Task.sleep(for: .milliseconds(10))
                families = try await metrics(gateway)
            }
            let list = try await gateway.get("/admin/repositories")

            let files = try FileManager.default.contentsOfDirectory(
                at: folder.appendingPathComponent("items"), includingPropertiesForKeys: [.fileSizeKey])
            let bytes = try files.reduce(0) { $0 + (try $1.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) }
            #expect(files.count == 2)
            #expect(value(in: families, "rds_gateway_cache_entries", disk) == 2)
            #expect(value(in: families, "rds_gateway_cache_bytes", disk) == Double(bytes))
            #expect(value(in: families, "rds_gateway_cache_evictions_total", disk) == 0)
            #expect(value(in: families, "rds_gateway_cache_entries", ["repository": "items", "level": "memory"]) == 2)
            let repositories = try #require(
                JSONSerialization.jsonObject(with: Data(list.text.utf8)) as? [[String: Any]])
            let diskJSON = try #require(repositories.first?["disk"] as? [String: Any])
            #expect(diskJSON["status"] as? String == "ok")
            #expect(diskJSON["entries"] as? Int == 2)
            #expect(diskJSON["bytes"] as? Int == bytes)
            #expect(diskJSON["evictions"] as? Int == 0)
            await gateway.stop()
            await upstream.stop()
        }
    }

    @Test func head_OfMetricsAndHealthEndpoints_AnswersLikeGetWithoutABody() async throws {
        let upstream = try await EndToEndUpstream.start()
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)

        for path in ["/metrics", "/health", "/health/ready"] {
            let get = try await gateway.get(path)
            let head = try await gateway.send(.head, path)
            #expect(head.status == 200, "HEAD \(path)")
            #expect(head.headers["Content-Type"] == get.headers["Content-Type"], "HEAD \(path)")
            #expect(head.headers["Content-Length"].flatMap(Int.init).map { $0 > 0 } == true, "HEAD \(path)")
            #expect(head.text.isEmpty, "HEAD \(path)")
        }
        #expect(try await gateway.send(.post, "/metrics").headers["Allow"] == "GET, HEAD")
        await gateway.stop()
        await upstream.stop()
    }
}
