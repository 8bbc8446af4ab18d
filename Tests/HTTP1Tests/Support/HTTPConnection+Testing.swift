import Glibc
import Sockets

@testable import HTTP1

extension HTTPConnection {
    /// Starts a connection for `handler` on its own event loop over a socket pair and returns
    /// the client's end: connection tests need no port and no listener. Closing the client
    /// stops the loop (after the connection has seen the close).
    ///
    /// `firstBytes` are in the socket before the connection starts, so they arrive before any of
    /// its deadlines can pass however slowly the test runs (a test of short timeouts that sent
    /// them afterwards could find the connection already closed for silence).
    static func startOverSocketPair(
        handler: any HTTPHandler, configuration: HTTPServer.Configuration = HTTPServer.Configuration(),
        firstBytes: String = ""
    ) throws -> RawHTTPClient {
        let (server, client) = try Socket.makePair()
        let bytes = Array(firstBytes.utf8)
        guard bytes.isEmpty || bytes.withUnsafeBytes({ client.send($0) }) == .sent(bytes.count) else {
            server.close()
            client.close()
            throw SocketError(operation: "send", code: EIO)
        }
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
