import Synchronization

/// Counts open connections across event loops: admits new ones up to a maximum and wakes
/// whoever waits for the count to reach zero (graceful shutdown).
final class ConnectionTracker: Sendable {
    private struct State {
        var open = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let maximum: Int
    private let state = Mutex(State())

    /// A tracker admitting at most `maximum` connections at once.
    init(maximum: Int) { self.maximum = maximum }

    /// Open connections now.
    var openConnections: Int { state.withLock { $0.open } }

    /// Counts a new connection in; `false` (and not counted) when the maximum is reached.
    func admit() -> Bool {
        state.withLock { state in
            guard state.open < maximum else { return false }
            state.open += 1
            return true
        }
    }

    /// Counts a closed connection out.
    func release() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open -= 1
            guard state.open == 0 else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once no connection is open.
    func waitUntilEmpty() async {
        await withCheckedContinuation { continuation in
            let isEmpty = state.withLock { state in
                if state.open == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if isEmpty { continuation.resume() }
        }
    }
}
