import Foundation
import HTTP1
import Sockets

/// The demo upstream running in the gateway's process on a loopback port: what a service with
/// `baseURL: "embedded:demo"` talks to.
public struct EmbeddedDemo: Sendable {
    /// The demo's handler (the gateway also passes `/__demo/…` knobs straight to it).
    public let handler: DemoUpstream
    /// The server it listens with.
    public let server: HTTPServer
    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL

    /// Starts the demo on `127.0.0.1`, port 0 (a free port).
    /// - Throws: `SocketError` when no loopback port can be bound.
    public static func start() async throws -> EmbeddedDemo {
        let handler = DemoUpstream()
        let server = HTTPServer(
            configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0, eventLoopThreads: 1),
            handler: handler)
        try await server.start()
        guard let url = URL(string: "http://127.0.0.1:\(server.port)") else {
            await server.shutdown(gracePeriod: Duration.zero)
            throw URLError(.badURL)
        }
        return EmbeddedDemo(handler: handler, server: server, baseURL: url)
    }
}
