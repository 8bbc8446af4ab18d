import Foundation
import Synchronization

/// Runs an operation against a deadline on a ``ClockProvider``, answering at the deadline even
/// when the operation ignores cancellation.
///
/// The operation and a sleeper run in tasks of their own; whichever ends first resolves the
/// caller's continuation, and the other is cancelled.
final class DeadlineRace<Output: Sendable>: Sendable {
    /// Thrown when the deadline passes first.
    struct Exceeded: Error {}

    private typealias Continuation = CheckedContinuation<Output, any Error>

    private struct State {
        var continuation: Continuation?
        var early: Result<Output, any Error>?
        var tasks: [Task<Void, Never>] = []
        var resolved = false
    }

    private let state = Mutex(State())

    private init() {}

    /// Returns the operation's output, or throws ``Exceeded`` once `clock` reaches `deadline`.
    /// - Throws: The operation's error, ``Exceeded``, or `CancellationError` when the caller is cancelled.
    static func run(
        until deadline: Date, on clock: any ClockProvider, _ operation: @escaping @Sendable () async throws -> Output
    ) async throws -> Output {
        let race = DeadlineRace()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard race.install(continuation) else { return }
                let executor = TaskPlacement.preferredExecutor
                race.track([
                    Task(executorPreference: executor) {
                        do { race.resolve(.success(try await operation())) } catch { race.resolve(.failure(error)) }
                    },
                    Task(executorPreference: executor) {
                        do {
                            try await clock.sleep(until: deadline)
                            race.resolve(.failure(Exceeded()))
                        } catch {}
                    },
                ])
            }
        } onCancel: {
            race.resolve(.failure(CancellationError()))
        }
    }

    /// Stores the caller's continuation; resumes it at once and returns `false` when already resolved.
    private func install(_ continuation: Continuation) -> Bool {
        let early: Result<Output, any Error>? = state.withLock { state in
            if state.early == nil { state.continuation = continuation }
            return state.early
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    private func track(_ tasks: [Task<Void, Never>]) {
        let resolved = state.withLock { state in
            state.tasks = tasks
            return state.resolved
        }
        if resolved { tasks.forEach { $0.cancel() } }
    }

    private func resolve(_ result: Result<Output, any Error>) {
        let (continuation, tasks): (Continuation?, [Task<Void, Never>]) = state.withLock { state in
            guard !state.resolved else { return (nil, []) }
            state.resolved = true
            if state.continuation == nil { state.early = result }
            defer { state.continuation = nil }
            return (state.continuation, state.tasks)
        }
        continuation?.resume(with: result)
        tasks.forEach { $0.cancel() }
    }
}
