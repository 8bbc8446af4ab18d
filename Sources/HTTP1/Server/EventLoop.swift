import Dispatch

/// One event loop: a serial queue that runs every read, write and timeout check of the
/// connections it owns, so a connection's state needs no lock. A server has a few of them
/// (`Configuration.eventLoopThreads`), never one per connection.
///
/// Everything except `execute(_:)` must be called on `queue`.
final class EventLoop: @unchecked Sendable {
    /// The serial queue all of this loop's I/O runs on.
    let queue: DispatchQueue
    /// The scratch buffer every connection of this loop reads into: one per loop, so an idle
    /// connection holds no read buffer.
    let readBuffer: UnsafeMutableRawBufferPointer
    private var connections: [Int32: HTTPConnection] = [:]
    private let timer: any DispatchSourceTimer

    /// A loop whose timer checks deadlines every `checkInterval`.
    init(label: String, checkInterval: Duration, readBufferSize: Int = 64 * 1_024) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
        readBuffer = .allocate(byteCount: readBufferSize, alignment: 16)
        timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = DispatchTimeInterval.nanoseconds(Int(checkInterval / .nanoseconds(1)))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: interval)
        timer.setEventHandler { [weak self] in self?.checkDeadlines() }
        timer.activate()
    }

    deinit {
        timer.cancel()
        readBuffer.deallocate()
    }

    /// Runs `work` on the loop's queue.
    func execute(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Open connections on this loop.
    var connectionCount: Int { connections.count }

    /// Takes ownership of a connection until it calls `remove(_:)`.
    func add(_ connection: HTTPConnection) {
        connections[connection.socket.fd] = connection
    }

    /// Forgets a closed connection.
    func remove(_ connection: HTTPConnection) {
        connections[connection.socket.fd] = nil
    }

    /// Asks every connection to finish its current request and close (graceful shutdown).
    func drainConnections() {
        for connection in connections.values { connection.drain() }
    }

    /// Closes every connection now, cancelling handlers still at work.
    func closeConnections() {
        for connection in connections.values { connection.close() }
    }

    private func checkDeadlines() {
        guard !connections.isEmpty else { return }
        let now = ContinuousClock.now
        for connection in connections.values { connection.checkDeadline(now: now) }
    }
}
