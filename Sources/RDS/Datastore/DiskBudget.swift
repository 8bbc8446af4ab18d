import Synchronization

/// The size of a ``FileDatastore``'s entry files (bytes and count), its evictions and write
/// failures, plus the optional byte bound that decides when to evict.
///
/// The counts are measured when the datastore opens, then kept exact by each save, delete,
/// eviction and dropped unusable file: every change to an entry file runs on that file's queue
/// and is counted there, so the counts always equal a fresh scan of the folder (files changed
/// behind the datastore's back aside; a removed folder is re-measured once recreated, with every
/// key queue held). One eviction runs at a time. Reading them is one lock, no I/O.
final class DiskBudget: Sendable {
    private struct State {
        var usedBytes: Int
        var entries: Int
        var evictions = 0
        var evicting = false
        var writeFailures = 0
        var lastWriteFailure: DatastoreFailure?
    }

    /// The bound on the total size of the entry files, or `nil` for none (never evicts).
    let maxBytes: Int?
    /// The size an eviction shrinks the files to (90 % of ``maxBytes``), so that not every save
    /// near the bound triggers one.
    let targetBytes: Int

    private let state: Mutex<State>

    /// Creates a budget whose `entries` files currently take `usedBytes`.
    init(maxBytes: Int?, usedBytes: Int, entries: Int = 0) {
        self.maxBytes = maxBytes.map { max(0, $0) }
        self.targetBytes = (self.maxBytes ?? .max) / 10 * 9
        state = Mutex(State(usedBytes: usedBytes, entries: entries))
    }

    /// The bytes the entry files take, as far as the budget knows.
    var usedBytes: Int { state.withLock { $0.usedBytes } }

    /// The entry files, their bytes, the files removed by evictions so far and the write failures.
    var statistics: DatastoreStatistics {
        state.withLock {
            DatastoreStatistics(
                entries: $0.entries, bytes: $0.usedBytes, evictions: $0.evictions, writeFailures: $0.writeFailures,
                lastWriteFailure: $0.lastWriteFailure)
        }
    }

    /// Counts a successful write that changed the files by `delta` bytes (`isNewFile` when it
    /// created the file rather than replacing one) and clears the last failure; returns `true` when
    /// the caller should evict now (and then must call ``finishEviction(evicted:)``).
    func recordWrite(_ delta: Int, isNewFile: Bool = false) -> Bool {
        state.withLock { state in
            state.usedBytes = max(0, state.usedBytes + delta)
            if isNewFile { state.entries += 1 }
            state.lastWriteFailure = nil
            guard let maxBytes, state.usedBytes > maxBytes, !state.evicting else { return false }
            state.evicting = true
            return true
        }
    }

    /// Counts a failed write; the level is degraded until the next successful one.
    func recordFailure(_ failure: DatastoreFailure) {
        state.withLock { state in
            state.writeFailures += 1
            state.lastWriteFailure = failure
        }
    }

    /// Counts the removal of one entry file of `bytes`; never asks for an eviction.
    func recordRemoval(_ bytes: Int) {
        state.withLock { state in
            state.usedBytes = max(0, state.usedBytes - bytes)
            state.entries = max(0, state.entries - 1)
        }
    }

    /// Sets the counts to a fresh measurement of the folder (after it was recreated), taken while
    /// no save or delete was under way.
    func reset(usedBytes: Int = 0, entries: Int = 0) {
        state.withLock { state in
            state.usedBytes = usedBytes
            state.entries = entries
        }
    }

    /// Ends an eviction pass that removed `evicted` files (each already counted by
    /// ``recordRemoval(_:)``). Saves made during the pass asked for no eviction of their own and
    /// may have added files it did not list: when the files are still past ``maxBytes`` and the
    /// pass removed some, the eviction goes on and this returns `true` (the caller runs another pass).
    func finishEviction(evicted: Int) -> Bool {
        state.withLock { state in
            state.evictions += evicted
            guard evicted > 0, let maxBytes, state.usedBytes > maxBytes else {
                state.evicting = false
                return false
            }
            return true
        }
    }
}
