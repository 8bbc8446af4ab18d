import Glibc
import Synchronization

/// One event loop: a dedicated thread blocked in `epoll_wait` that runs every read, write and
/// timeout check of the channels it owns (HTTP connections), so a channel's state needs no lock.
/// A server has a few of them, never one per connection. Other threads hand it work with
/// `execute(_:)`, which wakes it through a pipe; work handed over on the loop's own thread waits
/// for the end of the turn without a wake-up.
///
/// It is also a `TaskExecutor`: a task created with `Task(executorPreference: loop)` runs its
/// non-isolated code on the loop's thread, between turns, so a request handler and the upstream
/// call it makes on the same loop (``current``) cost no thread switch. ``startTask(_:)`` starts
/// such work in a task the loop keeps between jobs (see `EventLoopTaskPool`).
///
/// Everything except `execute(_:)`, `enqueue(_:)`, `isInLoopThread`, `start()` and `stop()` must
/// be called on the loop's thread.
public final class EventLoop: TaskExecutor, @unchecked Sendable {
    /// The scratch buffer every channel of this loop reads into: one per loop, so an idle
    /// connection holds no read buffer.
    public let readBuffer: UnsafeMutableRawBufferPointer
    private let epoll: EPoll
    /// The wake pipe: `execute(_:)` writes a byte so `epoll_wait` returns.
    private let wakeReader: Int32
    private let wakeWriter: Int32
    /// Work and jobs handed over from other threads; closed once the loop's thread has ended.
    private let inbox = Mutex(Inbox())
    private let wakePending = Atomic<Bool>(false)
    /// How often the channels' deadlines are checked, in nanoseconds.
    private let checkInterval: Int64
    /// The channels this loop owns, each at the index of its descriptor: an event's token (the
    /// descriptor) finds its channel by index, where a dictionary hashed it on every event.
    private var registered: [(any EventLoopChannel)?] = []
    private var isStopped = false
    private var cachedInstant = LoopInstant.now
    private var isInstantStale = true
    /// Work and jobs handed over on the loop's own thread.
    private var localWork: [@Sendable () -> Void] = []
    private var localJobs: [UnownedJob] = []
    /// The local work and jobs being run: swapped with `localWork` and `localJobs` each round and
    /// emptied keeping their capacity, so handing work over allocates nothing once the loop is warm.
    private var runningWork: [@Sendable () -> Void] = []
    private var runningJobs: [UnownedJob] = []
    private var timers = EventLoopTimers()
    /// Tasks kept between the jobs of `startTask(_:)`.
    private let tasks = EventLoopTaskPool(capacity: 32)
    private static let wakeToken = UInt64.max
    /// The thread-local slot holding the loop whose thread is running.
    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private struct Inbox {
        var work: [@Sendable () -> Void] = []
        var jobs: [UnownedJob] = []
        var isClosed = false
    }

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
        self.checkInterval = LoopInstant.nanoseconds(of: checkInterval)
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

    /// The loop whose thread calls this, if any.
    public static var current: EventLoop? {
        pthread_getspecific(currentKey).map { Unmanaged<EventLoop>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Whether the caller runs on this loop's thread.
    public var isInLoopThread: Bool { Self.current === self }

    /// Runs `work` on the loop's thread, soon (from any thread); on the loop's own thread, at the
    /// end of the current turn. Once the loop has ended, `work` runs at once on the caller's thread
    /// (every channel is closed by then).
    public func execute(_ work: @escaping @Sendable () -> Void) {
        if isInLoopThread { return localWork.append(work) }
        let accepted = inbox.withLock { inbox in
            if !inbox.isClosed { inbox.work.append(work) }
            return !inbox.isClosed
        }
        guard accepted else { return work() }
        wake()
    }

    /// Runs a job of a task that prefers this loop (`TaskExecutor`). Once the loop has ended, its
    /// jobs go to the global concurrent executor, so no task is ever stranded.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if isInLoopThread { return localJobs.append(job) }
        let accepted = inbox.withLock { inbox in
            if !inbox.isClosed { inbox.jobs.append(job) }
            return !inbox.isClosed
        }
        guard accepted else { return globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        wake()
    }

    /// Runs `job` in a task that prefers this loop as its executor (as `Task(executorPreference:)`
    /// does), reusing a task that finished an earlier job: its allocations (the slabs of its
    /// async frames) serve the next job, and no task is created. Call on the loop's thread.
    /// - Returns: What cancels `job` (and only `job`: a later job of the same task is not affected).
    public func startTask(_ job: @escaping @concurrent @Sendable () async -> Void) -> EventLoopTask {
        tasks.start(job, on: self)
    }

    /// Runs `work` on the loop's thread once `due` (on the loop's clock, see ``instant``) has
    /// passed (call on the loop's thread). There is no cancelling: `work` checks whether it still applies.
    public func schedule(at due: LoopInstant, _ work: @escaping () -> Void) {
        timers.schedule(at: due, work)
    }

    private func wake() {
        if !wakePending.exchange(true, ordering: .acquiringAndReleasing) {
            var byte: UInt8 = 1
            _ = Glibc.write(wakeWriter, &byte, 1)
        }
    }

    /// The time of the current loop turn on the monotonic clock: read at most once per turn (per
    /// `epoll_wait`), which is precise enough for deadlines of seconds.
    public var instant: LoopInstant {
        if isInstantStale {
            cachedInstant = .now
            isInstantStale = false
        }
        return cachedInstant
    }

    /// The channels this loop owns now.
    public var channels: [any EventLoopChannel] { registered.compactMap { $0 } }

    /// Takes ownership of a channel and watches it for reading.
    /// - Throws: `SocketError` when epoll refuses the descriptor.
    public func add(_ channel: any EventLoopChannel) throws {
        try epoll.add(channel.descriptor, interest: .readable, token: UInt64(channel.descriptor))
        let index = Int(channel.descriptor)
        if index >= registered.count { registered += repeatElement(nil, count: index + 1 - registered.count) }
        registered[index] = channel
    }

    /// Changes what a channel is watched for.
    public func watch(_ channel: any EventLoopChannel, for interest: EPoll.Events) {
        try? epoll.modify(channel.descriptor, interest: interest, token: UInt64(channel.descriptor))
    }

    /// Forgets a channel and stops watching its descriptor (call before closing it).
    public func remove(_ channel: any EventLoopChannel) {
        epoll.remove(channel.descriptor)
        let index = Int(channel.descriptor)
        if index < registered.count { registered[index] = nil }
    }

    /// Closes every channel now.
    public func abortChannels() {
        for case let channel? in registered { channel.abort() }
    }

    private func run() {
        pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque())
        var nextCheck = LoopInstant.now.advanced(byNanoseconds: checkInterval)
        while !isStopped {
            isInstantStale = true
            epoll.wait(timeoutMilliseconds: waitTimeout(until: nextCheck)) { token, events in
                if token == Self.wakeToken { return drainWakePipe() }
                let index = Int(truncatingIfNeeded: token)
                guard index < registered.count, let channel = registered[index] else { return }
                channel.handle(events)
            }
            runPending()
            let turn = instant
            for work in timers.takeDue(at: turn) { work() }
            if turn >= nextCheck {
                nextCheck = turn.advanced(byNanoseconds: checkInterval)
                for case let channel? in registered { channel.checkDeadline(now: turn) }
            }
        }
        // Work handed over while stopping (a handler's late answer, a stream's next chunk) finds
        // its channel closed and lets its task finish; later work runs elsewhere (see `execute`).
        inbox.withLock { $0.isClosed = true }
        wakePending.store(true, ordering: .releasing)
        tasks.close()
        runPending()
        pthread_setspecific(Self.currentKey, nil)
    }

    /// How long `epoll_wait` may block: until the next deadline check or timer, rounded up to a
    /// millisecond; not at all while work handed over on the loop's thread is waiting.
    private func waitTimeout(until nextCheck: LoopInstant) -> Int32 {
        guard localWork.isEmpty, localJobs.isEmpty else { return 0 }
        let wakeAt = min(nextCheck, timers.earliest ?? nextCheck)
        let delay = wakeAt.nanoseconds(since: .now)
        guard delay > 0 else { return 0 }
        return Int32(min(Int64(Int32.max), delay / 1_000_000 + (delay % 1_000_000 == 0 ? 0 : 1)))
    }

    private func drainWakePipe() {
        var scratch: (UInt64, UInt64) = (0, 0)
        while withUnsafeMutableBytes(of: &scratch, { Glibc.read(wakeReader, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Runs what was handed over, including what that work hands over in turn, for a bounded
    /// number of rounds so the sockets are served again soon.
    private func runPending() {
        for _ in 0..<16 {
            if wakePending.load(ordering: .acquiring) {
                wakePending.store(false, ordering: .releasing)
                let (work, jobs) = inbox.withLock { inbox in
                    defer { (inbox.work, inbox.jobs) = ([], []) }
                    return (inbox.work, inbox.jobs)
                }
                run(work, jobs)
            }
            guard !localWork.isEmpty || !localJobs.isEmpty else { return }
            swap(&localWork, &runningWork)
            swap(&localJobs, &runningJobs)
            run(runningWork, runningJobs)
            runningWork.removeAll(keepingCapacity: true)
            runningJobs.removeAll(keepingCapacity: true)
        }
    }

    private func run(_ work: [@Sendable () -> Void], _ jobs: [UnownedJob]) {
        for item in work { item() }
        for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
