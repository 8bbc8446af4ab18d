import Foundation
import Gateway
import HTTP1
import RDSTesting
import Testing

/// The built binary as an operator runs it: signals, grace period, health check subcommand.
@Suite(.timeLimit(.minutes(1)))
struct GatewayProcessTests {
    /// A configuration with one repository `slow` on `/slow/{id}` in front of `upstream`, a disk
    /// cache in `folder`, and a 30 s grace period.
    private static func writeConfig(upstream: String, folder: URL) throws -> URL {
        let text = """
            {"server": {"timeouts": {"shutdownGrace": 30}},
             "cache": {"disk": {"path": "\(folder.appendingPathComponent("cache").path)"}},
             "services": {"slow": {"baseURL": "\(upstream)", "timeouts": {"connect": 1, "firstByte": 30, "total": 30}}},
             "repositories": {"slow": {"route": "/slow/{id}", "service": "slow", "upstreamPath": "/slow/{id}",
                                       "defaultTTL": 60}}}
            """
        let file = folder.appendingPathComponent("gateway.json")
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Starts a gated upstream and the gateway in front of it, runs `body`, then cleans up.
    private func withGateway(_ body: (GatewayProcess, EndToEndUpstream) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rds-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/slow/1") { _, _ in EndToEndUpstream.Reply(body: #"{"slow":true}"#, waitForGate: true) }
        let gateway = try await GatewayProcess(config: try Self.writeConfig(upstream: upstream.baseURL, folder: folder))
        do {
            try await body(gateway, upstream)
        } catch {
            gateway.stop()
            upstream.openGate()
            await upstream.stop()
            throw error
        }
        gateway.stop()
        upstream.openGate()
        await upstream.stop()
    }

    /// Polls (at most 10 s) until the gateway refuses new connections; `true` when it did.
    private func waitUntilRefused(port: Int) async throws -> Bool {
        for _ in 0..<200 {
            do {
                _ = try HealthCheck(port: port, timeoutMilliseconds: 200).answer()
            } catch .connectFailed {
                return true
            } catch {
                // Accepted just before the listener closed, then dropped: poll again.
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test func sigterm_LetsASlowInFlightRequestFinish_ThenExitsZero() async throws {
        try await withGateway { gateway, upstream in
            let slow = Task { try await EndToEndClient.send(.get, "/slow/1", port: gateway.port) }
            await upstream.waitForArrivals(1)

            gateway.send(SIGTERM)
            let shutdown = await gateway.event(named: "shutdown_started")
            let refused = try await waitUntilRefused(port: gateway.port)
            upstream.openGate()
            let response = try await slow.value
            let status = await gateway.exitStatus()
            // The last line, written from the log buffer on the way out.
            let stopped = await gateway.event(named: "stopped")

            #expect(shutdown?["signal"] == String(SIGTERM))
            #expect(stopped != nil)
            #expect(refused)
            #expect(response.status == 200)
            #expect(response.text == #"{"slow":true}"#)
            #expect(status == 0)
        }
    }

    @Test func secondSignal_ExitsAtOnce_WhileARequestIsStillInFlight() async throws {
        try await withGateway { gateway, upstream in
            let slow = Task { try? await EndToEndClient.send(.get, "/slow/1", port: gateway.port) }
            await upstream.waitForArrivals(1)

            gateway.send(SIGTERM)
            _ = await gateway.event(named: "shutdown_started")
            gateway.send(SIGTERM)
            let status = await gateway.exitStatus()
            let forced = await gateway.event(named: "shutdown_forced")
            _ = await slow.value

            #expect(status == 128 + SIGTERM)
            #expect(forced?["signal"] == String(SIGTERM))
            #expect(upstream.calls("/slow/1") == 1)
        }
    }

    @Test func healthcheckSubcommand_ExitsZeroForTheRunningGateway_AndOneWithoutIt() async throws {
        try await withGateway { gateway, _ in
            let healthy = try await Self.runBinary(["healthcheck", "--port", String(gateway.port)])
            gateway.send(SIGTERM)
            #expect(healthy == 0)
            #expect(await gateway.exitStatus() == 0)
            // Not the ended gateway's port: a server of a test running in parallel may get it at once.
            let closed = try RefusingPort()
            let gone = try await Self.runBinary(["healthcheck", "--port", String(closed.port)])
            withExtendedLifetime(closed) {}
            #expect(gone == 1)
        }
    }

    @Test func healthcheckSubcommand_FollowsTheConfigAndRDSPort_AndRefusesAForeign200() async throws {
        try await withGateway { gateway, _ in
            let config = gateway.configFile
            // A copy of the running configuration that names the gateway's (non-default) port.
            let text = try String(contentsOf: config, encoding: .utf8)
            let pinned = config.deletingLastPathComponent().appendingPathComponent("pinned.json")
            try Data(text.replacingOccurrences(of: #"{"server": {"#, with: #"{"server": {"port": \#(gateway.port), "#).utf8)
                .write(to: pinned)
            #expect(try await Self.runBinary(["healthcheck", "--config", pinned.path]) == 0)
            #expect(try await Self.runBinary(["healthcheck"], environment: ["RDS_CONFIG": pinned.path]) == 0)
            #expect(
                try await Self.runBinary(
                    ["healthcheck"], environment: ["RDS_CONFIG": config.path, "RDS_PORT": String(gateway.port)]) == 0)
            #expect(
                try await Self.runBinary(
                    ["healthcheck", "--host", "0.0.0.0"],
                    environment: ["RDS_CONFIG": config.path, "RDS_PORT": String(gateway.port)]) == 0)
        }
        let foreign = try CannedHTTPListener(
            answer: "HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\n{\"status\":\"ok\"}")
        defer { foreign.stop() }
        #expect(try await Self.runBinary(["healthcheck", "--port", String(foreign.port)]) == 1)
    }

    /// Runs the binary with `arguments` and exactly `environment` to its end and returns its exit status.
    private static func runBinary(_ arguments: [String], environment: [String: String] = [:]) async throws -> Int32 {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("rds-gateway")
        let process = try ChildProcess(executable: binary.path, arguments: arguments, environment: environment)
        for await _ in process.standardError {}
        return await process.exitStatus()
    }
}
