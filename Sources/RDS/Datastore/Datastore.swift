/// Keyed, TTL-aware storage: the only place where RDS keeps state.
///
/// Repositories call these methods; implementations must be safe to call from many tasks at once.
/// A `get` returns stale entries too: deciding what is fresh is the repository's job.
public protocol Datastore<Key, Value>: Sendable {
    /// The key type.
    associatedtype Key: Hashable & Sendable
    /// The stored value type.
    associatedtype Value: Sendable

    /// Returns the entry for `key`, fresh or stale, or `nil` on a miss.
    /// - Throws: ``DatastoreError`` when the store itself fails (a corrupt entry is a miss, not an error).
    func get(_ key: Key) async throws -> CacheEntry<Value>?
    /// Stores `entry` under `key`, replacing any previous entry.
    /// - Throws: ``DatastoreError``; the previous entry is then left as it was.
    func save(_ entry: CacheEntry<Value>, for key: Key) async throws
    /// Stores `entry`, a renewal of the entry stored under `key` (a revalidation answered “not
    /// modified”: the same value with new freshness, validators or header fields), replacing it;
    /// or the first entry of a key nothing was stored for. The repository calls this instead of
    /// ``save(_:for:)`` for both. A level may return before its write is done (``FileDatastore``
    /// writes them behind): losing a renewal loses freshness only, since the entry it replaces
    /// holds the same value, and losing a first entry loses a cached copy only (the key is a miss
    /// again); neither can leave an older value in place of a newer one. Reads of `key` still see
    /// the entry, and later changes of `key` still land after it. By default, a save.
    /// - Throws: ``DatastoreError``, as ``save(_:for:)`` does, for what failed before it returned.
    func renew(_ entry: CacheEntry<Value>, for key: Key) async throws
    /// Removes the entry for `key`, if any.
    func delete(_ key: Key) async throws
    /// Removes every entry.
    func deleteAll() async throws
}

extension Datastore {
    /// Saves the renewal (``save(_:for:)``): a level without a cheaper way to renew.
    public func renew(_ entry: CacheEntry<Value>, for key: Key) async throws {
        try await save(entry, for: key)
    }

    /// ``renew(_:for:)`` when `renewing`, else ``save(_:for:)``: for layers that pass either down.
    public func save(_ entry: CacheEntry<Value>, for key: Key, renewing: Bool) async throws {
        if renewing { try await renew(entry, for: key) } else { try await save(entry, for: key) }
    }
}
