import Dispatch
import RDS

/// A task executor running its jobs on a serial queue of its own, which tells whether the current
/// code runs there; as a ``TaskPlacementScope`` it names itself.
final class QueueTaskExecutor: TaskExecutor, TaskPlacementScope, @unchecked Sendable {
    private let queue = DispatchQueue(label: "QueueTaskExecutor")
    private let marker = DispatchSpecificKey<Bool>()

    init() {
        queue.setSpecific(key: marker, value: true)
    }

    var preferredExecutor: (any TaskExecutor)? { self }

    /// `true` when the caller runs on this executor's queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
