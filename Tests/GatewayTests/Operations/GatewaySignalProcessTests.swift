import Foundation
import Gateway
import HTTP1
import Testing

/// The built binary and the signals an operator (or a dying log reader) sends it: SIGPIPE,
/// SIGUSR1/2 and SIGHUP, and the `POST /admin/reload` built on the same reload.
@Suite(.timeLimit(.minutes(1)))
struct GatewaySignalProcessTests {
    /// `items` on `/items/{id}` (cached 300 s) in front of `upstream`, plus `extra` on
    /// `/extra/{id}` when `withExtra`.
    private static func config(upstream: String, withExtra: Bool) -> String {
        let extra =
            withExtra
            ? #", "extra": {"route": "/extra/{id}", "service": "up", "upstreamPath": "/items/{id}", "defaultTTL": 300}"#
            : ""
        return """
            {"services": {"up": {"baseURL": "\(upstream)"}},
             "repositories": {"items": {"route": "/items/{id}", "service": "up", "upstreamPath": "/items/{id}",
                                        "defaultTTL": 300}\(extra)}}
            """
    }

    /// Starts an upstream and the gateway with `config(withExtra: false)` in `file`, runs `body`.
    private func withGateway(
        _ body: (GatewayProcess, EndToEndUpstream, URL) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rds-signals-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/1") { _, call in EndToEndUpstream.Reply(body: #"{"item":1,"call":\#(call)}"#) }
        let file = folder.appendingPathComponent("gateway.json")
        try Data(Self.config(upstream: upstream.baseURL, withExtra: false).utf8).write(to: file)
        let gateway = try await GatewayProcess(config: file)
        do {
            try await body(gateway, upstream, file)
        } catch {
            gateway.stop()
            await upstream.stop()
            throw error
        }
        gateway.stop()
        await upstream.stop()
    }

    @Test func closedLog_DoesNotKillTheProcess_AndDroppedLinesAreCounted() async throws {
        try await withGateway { gateway, _, _ in
            try await gateway.closeLog {
                _ = try await EndToEndClient.send(.get, "/items/1", port: gateway.port)
            }
            for _ in 0..<5 { _ = try await EndToEndClient.send(.get, "/items/1", port: gateway.port) }
            // Log lines are buffered: the refused write is counted once the buffer is written.
            var (status, failures) = (0, 0.0)
            for _ in 0..<100 where failures < 1 {
                let metrics = try await EndToEndClient.send(.get, "/metrics", port: gateway.port)
                status = metrics.status
                failures = metrics.text.split(separator: "\n")
                    .first { $0.hasPrefix("rds_gateway_log_write_failures_total ") }
                    .flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
                if failures < 1 { try await Task.sleep(for: .milliseconds(50)) }
            }
            gateway.send(SIGTERM)
            #expect(status == 200)
            #expect(failures >= 1)
            #expect(await gateway.exitStatus() == 0)
        }
    }

    @Test func userSignals_AreLoggedAndIgnored() async throws {
        try await withGateway { gateway, _, _ in
            gateway.send(SIGUSR1)
            let first = await gateway.event(named: "signal_ignored")
            gateway.send(SIGUSR2)
            let health = try await EndToEndClient.send(.get, "/health", port: gateway.port)
            gateway.send(SIGTERM)
            #expect(first?["signal"] == String(SIGUSR1))
            #expect(health.status == 200)
            #expect(await gateway.exitStatus() == 0)
        }
    }

    @Test func sighup_AddsNewRoute_KeepsCacheOfUnchangedRepository_AndKeepsRunningConfigWhenInvalid() async throws {
        try await withGateway { gateway, upstream, file in
            let port = gateway.port
            let miss = try await EndToEndClient.send(.get, "/items/1", port: port)
            #expect(try await EndToEndClient.send(.get, "/extra/1", port: port).status == 404)

            try Data(Self.config(upstream: upstream.baseURL, withExtra: true).utf8).write(to: file)
            gateway.send(SIGHUP)
            let reloaded = await gateway.event(named: "config_reloaded")
            let added = try await EndToEndClient.send(.get, "/extra/1", port: port)
            let hit = try await EndToEndClient.send(.get, "/items/1", port: port)

            try Data(#"{"services": {}, "repositories": {"#.utf8).write(to: file)
            gateway.send(SIGHUP)
            let failed = await gateway.event(named: "config_reload_failed")
            let stillThere = try await EndToEndClient.send(.get, "/extra/1", port: port)
            gateway.send(SIGTERM)

            #expect(miss.status == 200)
            #expect(reloaded?["added"] == "extra")
            #expect(reloaded?["kept"] == "items")
            #expect(added.status == 200)
            #expect(hit.headers["X-Cache"]?.hasPrefix("HIT") == true)
            #expect(hit.text == miss.text)
            #expect(upstream.calls("/items/1") == 2)
            #expect(failed?["error"]?.contains("not valid JSON") == true)
            #expect(stillThere.status == 200)
            #expect(await gateway.exitStatus() == 0)
        }
    }

    @Test func adminReload_AnswersWhatChanged_OrAProblemWhenInvalid() async throws {
        try await withGateway { gateway, upstream, file in
            let port = gateway.port
            try Data(Self.config(upstream: upstream.baseURL, withExtra: true).utf8).write(to: file)
            let reloaded = try await EndToEndClient.send(.post, "/admin/reload", port: port)
            let get = try await EndToEndClient.send(.get, "/admin/reload", port: port)
            try Data(#"{"services": {}, "repositories": {"x": {}}}"#.utf8).write(to: file)
            let refused = try await EndToEndClient.send(.post, "/admin/reload", port: port)
            let stillThere = try await EndToEndClient.send(.get, "/extra/1", port: port)
            gateway.send(SIGTERM)

            #expect(reloaded.status == 200)
            #expect(reloaded.json["added"] as? [String] == ["extra"])
            #expect(reloaded.json["kept"] as? [String] == ["items"])
            #expect(get.status == 405)
            #expect(refused.status == 422)
            #expect(refused.headers["Content-Type"] == "application/problem+json")
            #expect(refused.json["code"] as? String == "reload_failed")
            #expect(stillThere.status == 200)
            #expect(await gateway.exitStatus() == 0)
        }
    }
}
