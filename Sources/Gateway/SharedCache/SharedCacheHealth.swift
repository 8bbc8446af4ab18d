import Redis
import Synchronization

/// The shared level's counters and state, updated by the datastores and the stream reader.
final class SharedCacheHealth: Sendable {
    private let state = Mutex(SharedCacheStatistics())

    /// A copy of the counters now.
    var statistics: SharedCacheStatistics { state.withLock { $0 } }

    /// Counts a command that succeeded; returns `true` when that ends a failing spell.
    @discardableResult
    func recordSuccess() -> Bool {
        state.withLock { state in
            defer { state.commandsFailing = false }
            if state.streamJoined && state.commandsFailing { state.lastError = nil }
            return state.commandsFailing
        }
    }

    /// Counts a failed command whose caller falls back to the local levels; returns `true` when
    /// it starts a failing spell (log it once, not per command).
    @discardableResult
    func recordFailure(_ error: RedisError) -> Bool {
        state.withLock { state in
            defer {
                state.commandsFailing = true
                state.errors += 1
                state.fallbacks += 1
                state.lastError = error.description
            }
            return !state.commandsFailing
        }
    }

    /// Records whether the stream is read now; joining it proves Redis answers again, which ends
    /// a failing spell of the commands too.
    func setStreamJoined(_ joined: Bool, error: RedisError? = nil) {
        state.withLock { state in
            state.streamJoined = joined
            if let error {
                state.errors += 1
                state.lastError = error.description
            } else if joined {
                state.commandsFailing = false
                state.lastError = nil
            }
        }
    }

    /// Adds to one counter.
    func count(_ counter: WritableKeyPath<SharedCacheStatistics, Int>, by amount: Int = 1) {
        state.withLock { $0[keyPath: counter] += amount }
    }
}
