import Glibc
import Synchronization

/// One event loop: a dedicated thread blocked in `epoll_wait` that runs every read, write and
/// timeout check of the channels it owns (HTTP connections), so a channel's state needs no lock.
/// A server has a few of them, never one per connection. Other threads hand it work with
/// `execute(_:)`, which wakes it through a pipe.
///
/// Everything except `execute(_:)`, `start()` and `stop()` must be called on the loop's thread.
public final class EventLoop: @unchecked Sendable {
    /// The scratch buffer every channel of this loop reads into: one per loop, so an idle
    /// connection holds no read buffer.
    public let readBuffer: UnsafeMutableRawBufferPointer
    private let epoll: EPoll
    /// The wake pipe: `execute(_:)` writes a byte so `epoll_wait` returns.
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private let pending = Mutex<[@Sendable () -> Void]>([])
    private let wakePending = Atomic<Bool>(false)
    private let checkInterval: Duration
    private var registered: [Int32: any EventLoopChannel] = [:]
    private var isStopped = false
    private var cachedNow = ContinuousClock.now
    private var isNowStale = true
    private static let wakeToken = UInt64.max

    /// A loop whose deadline checks run every `checkInterval`; it runs once `start()` is called.
    /// - Throws: `SocketError` when epoll or the wake pipe cannot be created.
    public init(checkInterval: Duration, readBufferSize: Int = 64 * 1_024) throws {
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
    public func start() throws {
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

    /// Closes every channel and ends the loop's thread.
    public func stop() {
        execute { [self] in
            abortChannels()
            isStopped = true
        }
    }

    /// Runs `work` on the loop's thread, soon (from any thread).
    public func execute(_ work: @escaping @Sendable () -> Void) {
        pending.withLock { $0.append(work) }
        if !wakePending.exchange(true, ordering: .acquiringAndReleasing) {
            var byte: UInt8 = 1
            _ = Glibc.write(wakeWriter, &byte, 1)
        }
    }

    /// The time of the current loop turn: read from the clock at most once per turn (per
    /// `epoll_wait`), which is precise enough for deadlines of seconds.
    public var now: ContinuousClock.Instant {
        if isNowStale {
            cachedNow = .now
            isNowStale = false
        }
        return cachedNow
    }

    /// The channels this loop owns now.
    public var channels: Dictionary<Int32, any EventLoopChannel>.Values { registered.values }

    /// Takes ownership of a channel and watches it for reading.
    /// - Throws: `SocketError` when epoll refuses the descriptor.
    public func add(_ channel: any EventLoopChannel) throws {
        try epoll.add(channel.descriptor, interest: .readable, token: UInt64(channel.descriptor))
        registered[channel.descriptor] = channel
    }

    /// Changes what a channel is watched for.
    public func watch(_ channel: any EventLoopChannel, for interest: EPoll.Events) {
        try? epoll.modify(channel.descriptor, interest: interest, token: UInt64(channel.descriptor))
    }

    /// Forgets a channel and stops watching its descriptor (call before closing it).
    public func remove(_ channel: any EventLoopChannel) {
        epoll.remove(channel.descriptor)
        registered[channel.descriptor] = nil
    }

    /// Closes every channel now.
    public func abortChannels() {
        for channel in registered.values { channel.abort() }
    }

    private func run() {
        let timeout = Int32(max(1, checkInterval / .milliseconds(1)))
        var nextCheck = ContinuousClock.now + checkInterval
        while !isStopped {
            isNowStale = true
            epoll.wait(timeoutMilliseconds: timeout) { token, events in
                if token == Self.wakeToken { return drainWakePipe() }
                registered[Int32(truncatingIfNeeded: token)]?.handle(events)
            }
            runPending()
            let now = self.now
            if now >= nextCheck {
                nextCheck = now + checkInterval
                for channel in registered.values { channel.checkDeadline(now: now) }
            }
        }
        // Work handed over while stopping (a handler's late answer, a stream's next chunk) finds
        // its channel closed and lets its task finish.
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
