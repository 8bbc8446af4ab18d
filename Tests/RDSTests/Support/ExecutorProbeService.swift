import RDS
import Synchronization

/// Answers every `get` with the key itself, remembering for each call whether it ran on `executor`.
final class ExecutorProbeService: Service {
    private let executor: QueueTaskExecutor
    private let calls = Mutex<[Bool]>([])

    init(executor: QueueTaskExecutor) {
        self.executor = executor
    }

    /// For each `get` so far, whether it ran on the executor.
    var ranOnExecutor: [Bool] { calls.withLock { $0 } }

    func get(_ key: String, ifChangedFrom validators: Validators?) async throws -> ServiceResponse<String> {
        let onExecutor = executor.isCurrent
        calls.withLock { $0.append(onExecutor) }
        return .fetched(Fetched(value: key, freshness: Freshness(lifetime: 60), validators: Validators()))
    }

    func save(_ value: String, for key: String) async throws -> WriteResult<String> {
        throw ServiceError(.rejected, "reads only")
    }

    func delete(_ key: String) async throws -> WriteResult<String> {
        throw ServiceError(.rejected, "reads only")
    }
}
