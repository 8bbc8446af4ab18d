import Glibc
import Sockets
import Synchronization

/// One event loop: a dedicated thread blocked in `epoll_wait` that runs every read, write and
/// timeout check of the connections it owns, so a connection's state needs no lock. A server
/// has a few of them (`Configuration.eventLoopThreads`), never one per connection. Other threads
/// hand it work with `execute(_:)`, which wakes it through a pipe.
///
/// Everything except `execute(_:)`, `start()` and `stop()` must be called on the loop's thread.
final class EventLoop: @unchecked Sendable {
    /// The scratch buffer every connection of this loop reads into: one per loop, so an idle
    /// connection holds no read buffer.
    let readBuffer: UnsafeMutableRawBufferPointer
    private let epoll: EPoll
    /// The wake pipe: `execute(_:)` writes a byte so `epoll_wait` returns.
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private let pending = Mutex<[@Sendable () -> Void]>([])
    private let wakePending = Atomic<Bool>(false)
    private let checkInterval: Duration
    private var connections: [Int32: HTTPConnection] = [:]
    private var isStopped = false
    private var cachedNow = ContinuousClock.now
    private var isNowStale = true
    private var dateSecond = -1
    private var dateValue: [UInt8] = []
    private static let wakeToken = UInt64.max

    /// A loop whose deadline checks run every `checkInterval`; it runs once `start()` is called.
    /// - Throws: `SocketError` when epoll or the wake pipe cannot be created.
    init(checkInterval: Duration, readBufferSize: Int = 64 * 1_024) throws {
        var pipeDescriptors: [Int32] = [-1, -1]
        guard pipe(&pipeDescriptors) == 0 else { throw SocketError.current("pipe") }
        wakeReader = pipeDescriptors[0]
        wakeWriter = pipeDescriptors[1]
        for descriptor in pipeDescriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        do {
            epoll = try EPoll()
            try epoll.add(wakeReader, interest: .readable, token: Self.wakeToken)
        } catch {
            Glibc.close(wakeReader)
            Glibc.close(wakeWriter)
            throw error
        }
        self.checkInterval = checkInterval
        readBuffer = .allocate(byteCount: readBufferSize, alignment: 16)
    }

    deinit {
        Glibc.close(wakeReader)
        Glibc.close(wakeWriter)
        readBuffer.deallocate()
    }

    /// Starts the loop's thread; it keeps the loop alive until `stop()`.
    /// - Throws: `SocketError` when the thread cannot be created.
    func start() throws {
        let retained = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, Self.threadMain, retained)
        guard created == 0 else {
            Unmanaged<EventLoop>.fromOpaque(retained).release()
            throw SocketError(operation: "pthread_create", code: created)
        }
        pthread_detach(thread)
    }

    /// The loop thread's entry point: takes over the reference `start()` retained.
    private static let threadMain: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = {
        argument in
        guard let argument else { return nil }
        Unmanaged<EventLoop>.fromOpaque(argument).takeRetainedValue().run()
        return nil
    }

    /// Closes every connection and ends the loop's thread.
    func stop() {
        execute { [self] in
            closeConnections()
            isStopped = true
        }
    }

    /// Runs `work` on the loop's thread, soon (from any thread).
    func execute(_ work: @escaping @Sendable () -> Void) {
        pending.withLock { $0.append(work) }
        if !wakePending.exchange(true, ordering: .acquiringAndReleasing) {
            var byte: UInt8 = 1
            _ = Glibc.write(wakeWriter, &byte, 1)
        }
    }

    /// The time of the current loop turn: read from the clock at most once per turn (per
    /// `epoll_wait`), which is precise enough for deadlines of seconds.
    var now: ContinuousClock.Instant {
        if isNowStale {
            cachedNow = .now
            isNowStale = false
        }
        return cachedNow
    }

    /// The `Date` header value, formatted at most once per second by this loop: no lock shared
    /// with the other loops on the response path.
    var date: [UInt8] {
        let second = time(nil)
        if second != dateSecond {
            dateSecond = second
            dateValue = HTTPDate.format(secondsSince1970: second)
        }
        return dateValue
    }

    /// Takes ownership of a connection and watches it for reading.
    /// - Throws: `SocketError` when epoll refuses the descriptor.
    func add(_ connection: HTTPConnection) throws {
        try epoll.add(connection.socket.fd, interest: .readable, token: UInt64(connection.socket.fd))
        connections[connection.socket.fd] = connection
    }

    /// Changes what a connection is watched for.
    func watch(_ connection: HTTPConnection, for interest: EPoll.Events) {
        try? epoll.modify(connection.socket.fd, interest: interest, token: UInt64(connection.socket.fd))
    }

    /// Forgets a connection and stops watching its descriptor (call before closing it).
    func remove(_ connection: HTTPConnection) {
        epoll.remove(connection.socket.fd)
        connections[connection.socket.fd] = nil
    }

    /// Closes the connection this loop can best spare to make room for a new one: the
    /// longest-idle one between requests, else the longest-running stream (Server-Sent Events).
    /// A connection whose next request is already waiting unread is not idle. Returns `false`,
    /// closing nothing, when every connection is in the middle of a request.
    /// - Parameter handingOverSlot: The new connection takes the closed one's place in the
    ///   connection count (it was not counted in).
    func closeConnectionToMakeRoom(handingOverSlot: Bool = false) -> Bool {
        let spare = connections.values.filter { !$0.isReserved && ($0.machine.isIdle || $0.machine.isStreaming) }
        let idle = spare.filter { $0.machine.isIdle }
        let streams = spare.filter { $0.machine.isStreaming }
        guard let victim = Self.longestIdleWithoutInput(idle) ?? Self.longestIdle(streams) else { return false }
        victim.close(releasingSlot: !handingOverSlot)
        return true
    }

    /// Closes the oldest reserve connection that has not sent a whole request yet, handing its
    /// place to a new reserve connection: clients that open connections and send nothing cannot
    /// keep a health check out of the reserve. Returns `false` when there is none.
    func closeReserveConnectionToMakeRoom() -> Bool {
        let waiting = connections.values.filter { connection in
            guard connection.isReserved else { return false }
            switch connection.machine.state {
            case .waitingForRequest, .readingHead, .readingBody: return true
            case .responding, .closing, .closed: return false
            }
        }
        guard let victim = Self.longestIdleWithoutInput(waiting) else { return false }
        victim.close(releasingSlot: false)
        return true
    }

    private static func longestIdle(_ connections: [HTTPConnection]) -> HTTPConnection? {
        connections.min { $0.machine.idleSince < $1.machine.idleSince }
    }

    /// The longest-idle of `connections` with no unread input (a few are tried: input waiting
    /// unread is a request arriving, whose connection is not idle after all).
    private static func longestIdleWithoutInput(_ connections: [HTTPConnection]) -> HTTPConnection? {
        var candidates = connections
        for _ in 0..<8 {
            guard let best = longestIdle(candidates) else { return nil }
            if !hasUnreadInput(best) { return best }
            candidates.removeAll { $0 === best }
        }
        return nil
    }

    /// Whether bytes wait in the socket that the loop has not read yet (a request arriving).
    private static func hasUnreadInput(_ connection: HTTPConnection) -> Bool {
        var byte: UInt8 = 0
        return Glibc.recv(connection.socket.fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) > 0
    }

    /// Asks every connection to finish its current request and close (graceful shutdown).
    func drainConnections() {
        for connection in connections.values { connection.drain() }
    }

    /// Closes every connection now, cancelling handlers still at work.
    func closeConnections() {
        for connection in connections.values { connection.close() }
    }

    private func run() {
        let timeout = Int32(max(1, checkInterval / .milliseconds(1)))
        var nextCheck = ContinuousClock.now + checkInterval
        while !isStopped {
            isNowStale = true
            epoll.wait(timeoutMilliseconds: timeout) { token, events in
                if token == Self.wakeToken { return drainWakePipe() }
                connections[Int32(truncatingIfNeeded: token)]?.handle(events)
            }
            runPending()
            let now = self.now
            if now >= nextCheck {
                nextCheck = now + checkInterval
                for connection in connections.values { connection.checkDeadline(now: now) }
            }
        }
        // Work handed over while stopping (a handler's late answer, a stream's next chunk) finds
        // its connection closed and lets its task finish.
        runPending()
    }

    private func drainWakePipe() {
        var scratch: (UInt64, UInt64) = (0, 0)
        while withUnsafeMutableBytes(of: &scratch, { Glibc.read(wakeReader, $0.baseAddress, $0.count) }) > 0 {}
    }

    private func runPending() {
        guard wakePending.load(ordering: .acquiring) else { return }
        wakePending.store(false, ordering: .releasing)
        let work = pending.withLock { pending in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        for item in work { item() }
    }
}
