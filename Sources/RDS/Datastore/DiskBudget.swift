import Synchronization

/// The byte budget of a ``FileDatastore`` with a `maxBytes`: tracks the size of its entry files
/// and decides when to evict.
///
/// The count is kept up to date by each save and delete, and re-measured by each eviction, so
/// drift from files changed behind the datastore's back is corrected. One eviction runs at a time.
final class DiskBudget: Sendable {
    private struct State {
        var usedBytes: Int
        var evicting = false
    }

    /// The bound on the total size of the entry files.
    let maxBytes: Int
    /// The size an eviction shrinks the files to (90 % of ``maxBytes``), so that not every save
    /// near the bound triggers one.
    let targetBytes: Int

    private let state: Mutex<State>

    /// Creates a budget whose files currently take `usedBytes`.
    init(maxBytes: Int, usedBytes: Int) {
        self.maxBytes = max(0, maxBytes)
        self.targetBytes = self.maxBytes / 10 * 9
        state = Mutex(State(usedBytes: usedBytes))
    }

    /// The bytes the entry files take, as far as the budget knows.
    var usedBytes: Int { state.withLock { $0.usedBytes } }

    /// Counts a write that changed the files by `delta` bytes; returns `true` when the caller
    /// should evict now (and then must call ``finishEviction(usedBytes:)``).
    func recordWrite(_ delta: Int) -> Bool {
        state.withLock { state in
            state.usedBytes = max(0, state.usedBytes + delta)
            guard state.usedBytes > maxBytes, !state.evicting else { return false }
            state.evicting = true
            return true
        }
    }

    /// Counts a removal of `bytes`; never asks for an eviction.
    func recordRemoval(_ bytes: Int) {
        state.withLock { $0.usedBytes = max(0, $0.usedBytes - bytes) }
    }

    /// Forgets every file, after they were all deleted.
    func reset() {
        state.withLock { $0.usedBytes = 0 }
    }

    /// Ends an eviction with the re-measured size of the entry files.
    func finishEviction(usedBytes: Int) {
        state.withLock { state in
            state.usedBytes = usedBytes
            state.evicting = false
        }
    }
}
