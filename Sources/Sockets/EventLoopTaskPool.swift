/// The tasks an event loop keeps between jobs (see ``EventLoop/startTask(_:)``): a task that
/// finished a job parks here, waiting for the next one, instead of ending. Reusing it saves
/// creating a task per job and, above all, the slabs its allocator took for the job's async
/// frames (an allocator keeps its slabs until its task ends; a request through the gateway's
/// handlers needs about 18 of them). At most `capacity` tasks wait; more end.
///
/// Used on the loop's thread only (a job that ends elsewhere, once the loop has stopped, ends
/// its task too), so it needs no lock.
final class EventLoopTaskPool: @unchecked Sendable {
    /// What a task runs: `@concurrent`, as a `@Sendable` closure literal is, so that the closure
    /// handed to ``EventLoop/startTask(_:)`` reaches the task without a conversion thunk (an
    /// async frame and an executor check per job).
    typealias Job = @concurrent @Sendable () async -> Void

    /// A job handed to a waiting task. (A function passed bare through the continuation, which is
    /// generic, would be wrapped in two more conversion thunks on the way.)
    struct Handoff: Sendable {
        let job: Job
    }

    /// One reusable task and what it is doing.
    final class Worker: @unchecked Sendable {
        /// The task; cancelling it cancels the job it runs.
        var task: Task<Void, Never>?
        /// Counts the jobs this task has finished, so that a handle of an earlier job cancels nothing.
        var finishedJobs = 0
        /// Set while the task waits for its next job.
        var waiting: UnsafeContinuation<Handoff?, Never>?
    }

    private let capacity: Int
    private var idle: [Worker] = []
    private var isClosed = false

    /// How many tasks wait for a job now.
    var waitingCount: Int { idle.count }

    /// A pool keeping up to `capacity` waiting tasks.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Runs `job` in a waiting task, or in a new one preferring `loop` as its executor.
    func start(_ job: @escaping Job, on loop: EventLoop) -> EventLoopTask {
        if let worker = idle.popLast(), let waiting = worker.waiting {
            worker.waiting = nil
            waiting.resume(returning: Handoff(job: job))
            return EventLoopTask(worker: worker)
        }
        let worker = Worker()
        worker.task = Task.detached(executorPreference: loop) { [self] in
            var next: Handoff? = Handoff(job: job)
            while let handoff = next {
                await handoff.job()
                next = await park(worker, on: loop)
            }
        }
        return EventLoopTask(worker: worker)
    }

    /// Waits for the next job; `nil` ends the task: when its job was cancelled (a cancelled task
    /// stays cancelled), when it runs off the loop's thread (the loop has stopped), or when
    /// enough tasks are waiting already.
    private func park(_ worker: Worker, on loop: EventLoop) async -> Handoff? {
        await withUnsafeContinuation { continuation in
            guard loop.isInLoopThread else { return continuation.resume(returning: nil) }
            worker.finishedJobs &+= 1
            guard !Task.isCancelled, !isClosed, idle.count < capacity else { return continuation.resume(returning: nil) }
            worker.waiting = continuation
            idle.append(worker)
        }
    }

    /// Ends every waiting task and every task that finishes a job from now on (the loop is stopping).
    func close() {
        isClosed = true
        let waiting = idle.compactMap(\.waiting)
        idle.removeAll()
        for continuation in waiting { continuation.resume(returning: nil) }
    }
}
