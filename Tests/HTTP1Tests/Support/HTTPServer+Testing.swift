import HTTP1

extension HTTPServer {
    /// Starts a server on 127.0.0.1 port 0 (unless `configuration` says otherwise), runs `body`
    /// with it, and shuts it down afterwards, even when `body` throws.
    static func withRunning(
        _ configuration: Configuration = Configuration(host: "127.0.0.1", port: 0),
        handler: any HTTPHandler,
        _ body: (HTTPServer) async throws -> Void
    ) async throws {
        let server = HTTPServer(configuration: configuration, handler: handler)
        try await server.start()
        do {
            try await body(server)
        } catch {
            await server.shutdown(gracePeriod: .zero)
            throw error
        }
        await server.shutdown(gracePeriod: .seconds(5))
    }

    /// Waits (polling every 5 ms, for at most 10 s) until at most `remaining` connections are
    /// open; `false` if more stay open.
    func waitUntilNoOpenConnections(butFor remaining: Int = 0) async -> Bool {
        for _ in 0..<2_000 {
            if openConnections <= remaining { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return openConnections <= remaining
    }

    /// Waits (polling every 5 ms, for at most 10 s) until at least `count` connections are open.
    func waitUntilOpenConnections(_ count: Int) async -> Bool {
        for _ in 0..<2_000 {
            if openConnections >= count { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return openConnections >= count
    }
}
