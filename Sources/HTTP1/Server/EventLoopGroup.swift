import Synchronization

/// The server's fixed set of event loops; new connections go to them round robin.
final class EventLoopGroup: Sendable {
    /// The loops.
    let loops: [EventLoop]
    private let nextIndex = Atomic<Int>(0)

    /// `count` loops (at least one) checking deadlines every `checkInterval`.
    init(count: Int, checkInterval: Duration) {
        loops = (0..<Swift.max(1, count)).map { EventLoop(label: "http1.loop.\($0)", checkInterval: checkInterval) }
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
        for loop in loops { loop.execute { loop.closeConnections() } }
    }
}
