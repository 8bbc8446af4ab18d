@testable import HTTP1

extension HTTPConnection {
    /// Starts a connection for `handler` on its own event loop over a socket pair and returns
    /// the client's end: connection tests need no port and no listener. Closing the client
    /// stops the loop (after the connection has seen the close).
    static func startOverSocketPair(
        handler: any HTTPHandler, configuration: HTTPServer.Configuration = HTTPServer.Configuration()
    ) throws -> RawHTTPClient {
        let (server, client) = try Socket.makePair()
        let loop = try EventLoop(checkInterval: configuration.timeouts.checkInterval)
        try loop.start()
        let tracker = ConnectionTracker(maximum: 1)
        _ = tracker.admit()
        let context = HTTPConnectionContext(handler: handler, configuration: configuration, tracker: tracker)
        loop.execute {
            HTTPConnection(socket: server, remoteAddress: "test-peer", loop: loop, context: context).start()
        }
        return RawHTTPClient.adopting(client) { loop.stop() }
    }
}
