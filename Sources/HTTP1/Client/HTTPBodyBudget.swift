import Synchronization

/// A process-wide bound on the bytes held for responses still arriving from upstreams.
///
/// Each exchange holds a ``Lease``: its received bytes (the buffer's capacity, or the announced
/// `Content-Length` as soon as the head is in) are counted against ``limit``. The first
/// ``allowance`` bytes of every exchange always pass, so small answers are never refused; past
/// that, an exchange that would take the total over the limit fails with
/// `HTTPClientError.Kind.overBudget` (and its connection is closed) instead of growing the
/// process. A lease gives its bytes back when the call ends, however it ends, before its
/// completion hears of it.
public final class HTTPBodyBudget: Sendable, Hashable {
    /// The most bytes held at once by all exchanges (small answers may pass it by their allowance).
    public let limit: Int
    /// The bytes of each exchange that are counted but never refused.
    public let allowance: Int
    private let used = Atomic<Int>(0)

    /// Creates a budget of `limit` bytes (at least 1) with a per-exchange `allowance` (64 KiB by default).
    public init(limit: Int, allowance: Int = 64 * 1_024) {
        self.limit = max(1, limit)
        self.allowance = max(0, allowance)
    }

    /// The bytes held now.
    public var bytesInUse: Int { used.load(ordering: .relaxed) }

    /// Counts `count` more bytes when they fit (or stay within `allowance` of the exchange's total
    /// `total`); `false` leaves the count unchanged.
    fileprivate func take(_ count: Int, total: Int) -> Bool {
        if total <= allowance {
            used.add(count, ordering: .relaxed)
            return true
        }
        var current = used.load(ordering: .relaxed)
        while current + count <= limit {
            let (exchanged, original) = used.compareExchange(
                expected: current, desired: current + count, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    fileprivate func give(_ count: Int) { used.subtract(count, ordering: .relaxed) }

    /// Same budget object.
    public static func == (lhs: HTTPBodyBudget, rhs: HTTPBodyBudget) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The bytes one exchange holds; given back by ``release()`` (or when the lease is dropped).
    final class Lease: Sendable {
        private let budget: HTTPBodyBudget
        private let held = Atomic<Int>(0)

        init(_ budget: HTTPBodyBudget) { self.budget = budget }

        /// Raises what the exchange holds to `total` bytes; `false` when that would go over the budget.
        func hold(_ total: Int) -> Bool {
            let current = held.load(ordering: .relaxed)
            guard total > current else { return true }
            guard budget.take(total - current, total: total) else { return false }
            held.store(total, ordering: .relaxed)
            return true
        }

        /// Gives back what the exchange holds (its answer is handed over, or it failed).
        func release() { budget.give(held.exchange(0, ordering: .relaxed)) }

        deinit { release() }
    }
}
