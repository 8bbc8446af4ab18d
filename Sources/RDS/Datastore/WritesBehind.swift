import Synchronization

/// The bound on the writes a ``FileDatastore`` has queued without its caller waiting (renewals,
/// see ``FileDatastore/renew(_:for:)``): each holds its entry until written, so their number is
/// bounded; past the bound a caller waits for its own write, which slows it to the disk's pace.
final class WritesBehind: Sendable {
    /// The most writes queued behind at once.
    let limit: Int
    private let queued = Atomic<Int>(0)

    /// Allows at most `limit` writes behind at once (none when `limit` ≤ 0).
    init(limit: Int) {
        self.limit = limit
    }

    /// The writes queued behind and not done yet.
    var count: Int { queued.load(ordering: .relaxed) }

    /// Counts one more write behind and returns `true`, or returns `false` when `limit` are
    /// queued already (the caller then writes and waits).
    func admit() -> Bool {
        guard queued.add(1, ordering: .relaxed).newValue > limit else { return true }
        queued.subtract(1, ordering: .relaxed)
        return false
    }

    /// Counts a write admitted by ``admit()`` as done.
    func finish() {
        queued.subtract(1, ordering: .relaxed)
    }
}
