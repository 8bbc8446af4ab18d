import Sockets
import Sockets
import Synchronization

/// The server's fixed set of event loops; new connections go to them round robin.
final class EventLoopGroup: Sendable {
    /// The loops.
    let loops: [EventLoop]
    private let nextIndex = Atomic<Int>(0)

    /// Creates and starts `count` loops (at least one) checking deadlines every `checkInterval`.
    /// - Throws: `SocketError` when a loop or its thread cannot be created.
    init(count: Int, checkInterval: Duration) throws {
        loops = try (0..<Swift.max(1, count)).map { _ in try EventLoop(checkInterval: checkInterval) }
        do {
            for loop in loops { try loop.start() }
        } catch {
            stop()
            throw error
        }
    }

    /// The loop for the next connection.
    func next() -> EventLoop {
        let index = nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue
        return loops[index % loops.count]
    }

    /// Asks every connection on every loop to finish its request and close.
    func drainConnections() {
        for loop in loops { loop.execute { loop.drainConnections() } }
    }

    /// Closes every connection on every loop now.
    func closeConnections() {
        for loop in loops { loop.execute { loop.abortChannels() } }
    }

    /// Closes every connection and ends every loop's thread.
    func stop() {
        for loop in loops { loop.stop() }
    }
}
