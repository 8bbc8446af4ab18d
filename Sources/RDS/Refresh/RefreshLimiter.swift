import Synchronization

/// Bounds how many background refreshes of one service run at once; the others wait their turn
/// in order (suspended, never polling).
public final class RefreshLimiter: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        var waitingStart = 0
    }

    private let state = Mutex(State())
    /// The most refreshes run at once.
    public let limit: Int

    /// Creates a limiter letting `limit` (at least 1) refreshes run at once.
    public init(limit: Int) { self.limit = max(1, limit) }

    /// The number of refreshes running now.
    public var running: Int { state.withLock { $0.running } }

    /// The number of refreshes waiting for a turn.
    public var waiting: Int { state.withLock { $0.waiting.count - $0.waitingStart } }

    /// Runs `operation` once fewer than ``limit`` others run.
    public func run<T: Sendable>(_ operation: @Sendable () async -> T) async -> T {
        await acquire()
        defer { release() }
        return await operation()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now: Bool = state.withLock { state in
                guard state.running >= limit else {
                    state.running += 1
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func release() {
        let next: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard state.waitingStart < state.waiting.count else {
                state.running -= 1
                return nil
            }
            let next = state.waiting[state.waitingStart]
            state.waitingStart += 1
            if state.waitingStart > 64 && state.waitingStart * 2 > state.waiting.count {
                state.waiting.removeFirst(state.waitingStart)
                state.waitingStart = 0
            }
            return next
        }
        next?.resume()
    }
}
