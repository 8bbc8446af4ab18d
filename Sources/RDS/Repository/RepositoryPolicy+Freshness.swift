import Foundation

extension RepositoryPolicy {
    /// The time a value stays fresh: the upstream's remaining lifetime (lifetime minus age), or
    /// ``defaultTTL`` when it gave none, clamped into ``minTTL`` … ``maxTTL``.
    public func timeToLive(for freshness: Freshness) -> TimeInterval {
        let remaining = freshness.lifetime.map { $0 - freshness.age } ?? defaultTTL
        return min(max(remaining, minTTL), maxTTL)
    }

    /// Builds the entry to store for `value` fetched at `now`, or `nil` when the upstream forbids storing it.
    func entry<Value>(
        for value: Value, freshness: Freshness, validators: Validators, at now: Date
    ) -> CacheEntry<Value>? {
        guard freshness.isStorable else { return nil }
        return CacheEntry(
            value: value, storedAt: now, expiresAt: now.addingTimeInterval(timeToLive(for: freshness)),
            validators: validators, initialAge: freshness.age, mustRevalidate: freshness.mustRevalidate,
            staleWhileRevalidate: freshness.staleWhileRevalidate.map { min($0, staleWhileRevalidate) },
            staleIfError: freshness.staleIfError.map { min($0, staleIfError) })
    }

    /// `true` when a fresh `entry` has used up the ``refreshAhead`` fraction of its lifetime at `now`.
    func isRefreshAheadDue<Value>(_ entry: CacheEntry<Value>, at now: Date) -> Bool {
        guard let fraction = refreshAhead, entry.isFresh(at: now) else { return false }
        let lifetime = entry.expiresAt.timeIntervalSince(entry.storedAt)
        guard lifetime > 0 else { return false }
        return now.timeIntervalSince(entry.storedAt) >= fraction * lifetime
    }

    /// `true` when a stale `entry` may stand in for a failed fetch at `now` (its own stale-if-error
    /// window, else ``staleIfError``); a fresh entry always may, a `must-revalidate` one never once stale.
    func canServeIfError<Value>(_ entry: CacheEntry<Value>, at now: Date) -> Bool {
        if entry.isFresh(at: now) { return true }
        return !entry.mustRevalidate && now.timeIntervalSince(entry.expiresAt) < (entry.staleIfError ?? staleIfError)
    }

    /// `true` when a stale `entry` may be served while it is refreshed in the background at `now`
    /// (its own stale-while-revalidate window, else ``staleWhileRevalidate``); never a `must-revalidate` one.
    func canServeWhileRevalidating<Value>(_ entry: CacheEntry<Value>, at now: Date) -> Bool {
        !entry.mustRevalidate
            && now.timeIntervalSince(entry.expiresAt) < (entry.staleWhileRevalidate ?? staleWhileRevalidate)
    }
}
