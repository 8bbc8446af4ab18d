/// A job started with ``EventLoop/startTask(_:)``: what cancels it.
public struct EventLoopTask: Sendable {
    private let worker: EventLoopTaskPool.Worker
    private let jobNumber: Int

    init(worker: EventLoopTaskPool.Worker) {
        self.worker = worker
        self.jobNumber = worker.finishedJobs
    }

    /// Cancels the job, unless it has finished (its task may be running another job by now).
    /// Call on the loop's thread.
    public func cancel() {
        guard worker.finishedJobs == jobNumber else { return }
        worker.task?.cancel()
    }
}
