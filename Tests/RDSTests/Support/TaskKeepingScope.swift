import RDS
import Synchronization

/// A scope that starts the fetches of the reads it is bound for itself (as a caller keeping tasks
/// between jobs does), in tasks on `executor` with itself bound, counting them.
final class TaskKeepingScope: TaskPlacementScope {
    let executor = QueueTaskExecutor()
    private let starts = Mutex(0)

    /// How many jobs ``startTask(_:)`` started.
    var started: Int { starts.withLock { $0 } }

    var preferredExecutor: (any TaskExecutor)? { executor }

    func startTask(_ job: @escaping @Sendable () async -> Void) -> (any PlacedTask)? {
        starts.withLock { $0 += 1 }
        return Task(executorPreference: executor) { await TaskPlacement.$scope.withValue(self, operation: job) }
    }
}
