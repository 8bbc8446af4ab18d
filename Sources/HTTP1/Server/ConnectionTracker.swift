import Synchronization

/// Counts open connections across event loops: admits new ones up to a maximum, then into a
/// small reserve, and wakes whoever waits for the count to reach zero (graceful shutdown).
final class ConnectionTracker: Sendable {
    /// How a new connection was let in.
    enum Admission: Equatable {
        /// Below the maximum.
        case normal
        /// Past the maximum, into the reserve: room must be made (an idle connection closed), or
        /// it may be answered for the reserved paths only.
        case reserve
        /// The reserve is full too: close it at once.
        case refused
    }

    private struct State {
        var open = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        var slotCounts = HTTPServer.SlotCounts()
    }

    private let maximum: Int
    private let reserve: Int
    private let state = Mutex(State())

    /// A tracker admitting `maximum` connections, then `reserve` more into the reserve.
    init(maximum: Int, reserve: Int = 0) {
        self.maximum = maximum
        self.reserve = Swift.max(0, reserve)
    }

    /// Open connections now.
    var openConnections: Int { state.withLock { $0.open } }

    /// Counts a new connection in, unless refused (then it is not counted).
    func admit() -> Admission {
        state.withLock { state in
            let admission: Admission =
                state.open < maximum ? .normal : state.open < maximum + reserve ? .reserve : .refused
            if admission != .refused { state.open += 1 }
            return admission
        }
    }

    /// What happened to connections that found the server full.
    var slotCounts: HTTPServer.SlotCounts { state.withLock { $0.slotCounts } }

    /// Records what a loop did with a connection admitted past the maximum.
    func record(_ outcome: WritableKeyPath<HTTPServer.SlotCounts, Int>) {
        state.withLock { $0.slotCounts[keyPath: outcome] += 1 }
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
