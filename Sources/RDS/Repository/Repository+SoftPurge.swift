import Foundation

extension Repository {
    /// Marks the entry of `key` stale without dropping it: the next read revalidates it (a
    /// conditional request when validators are stored) while serving the stale value, which stays
    /// servable for as long as it would have been fresh (never a `must-revalidate` one).
    /// Publishes nothing: the value has not changed.
    /// - Returns: `true` when an entry was marked, `false` when none is stored.
    /// - Throws: ``RepositoryErrorKind/writeFailed`` wrapping the ``DatastoreError``.
    @discardableResult
    public func softPurge(_ key: Key) async throws -> Bool {
        guard var entry = await storedEntry(for: key) else { return false }
        let now = store.clock.now
        let remaining = max(0, entry.expiresAt.timeIntervalSince(now))
        entry.expiresAt = min(entry.expiresAt, now)
        entry.staleWhileRevalidate = max(entry.staleWhileRevalidate ?? policy.staleWhileRevalidate, remaining)
        do {
            try await store.datastore.save(entry, for: key)
        } catch {
            throw RepositoryError(.writeFailed, "Could not mark the resource stale", details: details(key), inner: error)
        }
        return true
    }
}
