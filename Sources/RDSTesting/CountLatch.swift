import Synchronization

/// A counter that tasks can await: ``wait(until:)`` returns once the count reaches a target.
///
/// Waiters are continuations resumed by ``increment()``, so nothing polls. A waiting task that is
/// cancelled (for example by a test's time limit) stops waiting at once, so a broken test fails
/// instead of hanging.
public final class CountLatch: Sendable {
    private struct State {
        var count = 0
        var waiters: [UInt64: (target: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Creates a latch at zero.
    public init() {}

    /// The current count.
    public var count: Int { state.withLock { $0.count } }

    /// Adds one and wakes every waiter whose target is reached.
    public func increment() {
        let due: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.count += 1
            let reached = state.waiters.filter { $0.value.target <= state.count }
            for id in reached.keys { state.waiters[id] = nil }
            return reached.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Returns once the count is at least `target`, or once the calling task is cancelled.
    public func wait(until target: Int) async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if state.count >= target || Task.isCancelled { return true }
                    state.waiters[id] = (target, continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }
}
