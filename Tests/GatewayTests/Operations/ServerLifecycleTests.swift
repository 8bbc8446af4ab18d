import Foundation
import FoundationNetworking
import Gateway
import HTTP1
import RDSTesting
import Testing

struct ServerLifecycleTests {
    @Test func serveUntilSignalled_LetsAnInFlightRequestFinish_ThenReturnsZero() async throws {
        let (arrived, arrival) = AsyncStream.makeStream(of: Void.self)
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        let server = HTTPServer(
            configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0),
            handler: ClosureHTTPHandler { request in
                guard request.path == "/slow" else { return HTTPResponse(status: 200) }
                arrival.yield()
                for await _ in released { break }
                return HTTPResponse(status: 200, bytes: Array("finished".utf8))
            })
        try await server.start()
        let port = server.port
        let signals = ShutdownSignals(signals: [SIGUSR1])
        let logger = RecordingLogger()
        let lifecycle = Task {
            await ServerLifecycle.serveUntilSignalled(
                server, signals: signals, gracePeriod: .seconds(30), logger: logger)
        }
        let client = Task { () throws -> (Data, Int?) in
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/slow"))
            let (data, response) = try await URLSession.shared.data(from: url)
            return (data, (response as? HTTPURLResponse)?.statusCode)
        }
        var arrivals = arrived.makeAsyncIterator()
        _ = await arrivals.next()

        kill(getpid(), SIGUSR1)
        #expect(await signals.first() == SIGUSR1)
        let refused = try await waitUntilRefused(port: port)
        release.yield()
        let (body, status) = try await client.value

        #expect(refused)
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self) == "finished")
        #expect(await lifecycle.value == 0)
        #expect(logger.events == ["shutdown_started", "shutdown_finished"])
        #expect(logger.entries.first?.fields["signal"] == .string("signal \(SIGUSR1)"))
    }

    /// Polls (at most 5 s) until the server stops accepting; `true` when it did.
    private func waitUntilRefused(port: Int) async throws -> Bool {
        for _ in 0..<500 {
            do {
                _ = try HealthCheck(port: port, timeoutMilliseconds: 200).status()
            } catch .connectFailed {
                return true
            } catch {
                // Accepted just before the listener closed, then dropped: poll again.
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}
