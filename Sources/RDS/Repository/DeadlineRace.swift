import Foundation
import Synchronization

/// Runs an operation against a deadline, answering at the deadline even when the operation
/// ignores cancellation.
///
/// The operation runs in a task of its own (on ``TaskPlacement/preferredExecutor``); the deadline
/// is a timer of a ``RefreshScheduler`` (one sleeping task for every deadline of a repository, not
/// one per call). Whichever ends first resolves the caller's continuation; the other is cancelled.
final class DeadlineRace<Output: Sendable>: Sendable {
    /// Thrown when the deadline passes first.
    struct Exceeded: Error {}

    private typealias Continuation = CheckedContinuation<Output, any Error>

    private struct State {
        var continuation: Continuation?
        var early: Result<Output, any Error>?
        var task: Task<Void, Never>?
        var resolved = false
    }

    private let state = Mutex(State())

    private init() {}

    /// Returns the operation's output, or throws ``Exceeded`` once `timers`' clock reaches `deadline`.
    /// - Throws: The operation's error, ``Exceeded``, or `CancellationError` when the caller is cancelled.
    static func run(
        until deadline: Date, on timers: RefreshScheduler, _ operation: @escaping @Sendable () async throws -> Output
    ) async throws -> Output {
        let race = DeadlineRace()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard race.install(continuation) else { return }
                let timer = timers.schedule(at: deadline) { race.resolve(.failure(Exceeded())) }
                race.track(
                    Task(executorPreference: TaskPlacement.preferredExecutor) {
                        do { race.resolve(.success(try await operation())) } catch { race.resolve(.failure(error)) }
                        timers.cancel(timer)
                    })
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

    private func track(_ task: Task<Void, Never>) {
        let resolved = state.withLock { state in
            state.task = task
            return state.resolved
        }
        if resolved { task.cancel() }
    }

    private func resolve(_ result: Result<Output, any Error>) {
        let (continuation, task): (Continuation?, Task<Void, Never>?) = state.withLock { state in
            guard !state.resolved else { return (nil, nil) }
            state.resolved = true
            if state.continuation == nil { state.early = result }
            defer { state.continuation = nil }
            return (state.continuation, state.task)
        }
        continuation?.resume(with: result)
        task?.cancel()
    }
}
