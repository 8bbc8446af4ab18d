import Glibc
import Sockets

@testable import HTTP1

/// Several server connections on one event loop over socket pairs, each sent one request by a
/// client that then reads nothing; tests look inside the connections on their loop.
final class OpenConnections: @unchecked Sendable {
    private let loop: EventLoop
    private let connections: [HTTPConnection]
    private let clients: [Socket]

    private init(loop: EventLoop, connections: [HTTPConnection], clients: [Socket]) {
        self.loop = loop
        self.connections = connections
        self.clients = clients
    }

    /// Starts `count` connections answering with `handler`, each with `request` already sent.
    static func start(count: Int, handler: any HTTPHandler, request: String) async throws -> OpenConnections {
        let loop = try EventLoop(checkInterval: .milliseconds(50))
        try loop.start()
        let tracker = ConnectionTracker(maximum: count)
        let context = HTTPConnectionContext(handler: handler, configuration: .init(), tracker: tracker)
        var connections: [HTTPConnection] = []
        var clients: [Socket] = []
        for _ in 0..<count {
            let (server, client) = try Socket.makePair()
            let bytes = Array(request.utf8)
            _ = bytes.withUnsafeBytes { client.send($0) }
            _ = tracker.admit()
            connections.append(HTTPConnection(socket: server, remoteAddress: "test-peer", loop: loop, context: context))
            clients.append(client)
        }
        let started = OpenConnections(loop: loop, connections: connections, clients: clients)
        await started.onLoop { $0.connections.forEach { $0.start() } }
        return started
    }

    /// The storage addresses of the segments each connection still has to write, once every
    /// connection has something queued (polled on the loop).
    func outboundSegments() async -> [[Int]] {
        while true {
            let snapshot = await onLoop { open in
                open.connections.map { connection in
                    connection.outbound.segments.map { segment in
                        segment.withUnsafeBytes { Int(bitPattern: $0.baseAddress) }
                    }
                }
            }
            if snapshot.allSatisfy({ !$0.isEmpty }) { return snapshot }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Closes the clients and stops the loop.
    func close() {
        for client in clients { client.close() }
        loop.execute { [self] in
            connections.forEach { $0.close() }
            loop.stop()
        }
    }

    private func onLoop<T: Sendable>(_ work: @escaping @Sendable (OpenConnections) -> T) async -> T {
        await withCheckedContinuation { continuation in
            loop.execute { [self] in continuation.resume(returning: work(self)) }
        }
    }
}
