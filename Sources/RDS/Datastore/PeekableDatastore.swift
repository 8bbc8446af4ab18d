/// A ``Datastore`` whose in-memory level can be read synchronously.
///
/// The HTTP fast path calls ``peek(_:)`` on the event loop to answer cache hits without
/// suspending; anything that needs I/O goes through the `async` ``Datastore/get(_:)``.
public protocol PeekableDatastore<Key, Value>: Datastore {
    /// Returns the in-memory entry for `key`, fresh or stale, or `nil` when it is not in memory.
    ///
    /// Never blocks behind I/O: implementations only take a short lock around an in-memory lookup.
    func peek(_ key: Key) -> CacheEntry<Value>?

    /// The entry for `key` from a level below memory that can read it without waiting (a disk
    /// level whose file is in the page cache), kept in memory from now on, or `nil` when none
    /// can (nothing below, nothing stored, or the read would wait: the `async` get tells).
    ///
    /// The HTTP fast path calls it after a ``peek(_:)`` that found nothing. Never suspends and
    /// never waits for the disk; by default there is no such level (`nil`).
    func peekBelow(_ key: Key) -> CacheEntry<Value>?

    /// Renews `entry` for `key` as ``Datastore/renew(_:for:)`` does when every level can without
    /// suspending (memory stores it, a disk level keeps it to write behind) and returns `true`;
    /// returns `false`, having changed nothing, when a level cannot (the `async` renew then
    /// stores it). A revalidation renews so on the event loop, without an async call per level.
    /// By default no level can: `false`.
    func renewInPlace(_ entry: CacheEntry<Value>, for key: Key) -> Bool

    /// ``renewInPlace(_:for:)`` for a revalidation: `entry` renews the stored entry of `key` (a
    /// “not modified” answer: the same value with new freshness, validators or header fields),
    /// never a first entry. A level behind memory may then skip its write when the renewal stays
    /// fresh only briefly or it wrote the key lately, never when the renewal shortens the
    /// freshness (``FileDatastore/renewRevalidatedInPlace(_:for:renewing:)``). By default,
    /// ``renewInPlace(_:for:)``.
    func renewRevalidatedInPlace(_ entry: CacheEntry<Value>, for key: Key) -> Bool
}

extension PeekableDatastore {
    /// No level below memory answers without waiting: `nil`.
    public func peekBelow(_ key: Key) -> CacheEntry<Value>? { nil }

    /// No renewal without suspending: `false`.
    public func renewInPlace(_ entry: CacheEntry<Value>, for key: Key) -> Bool { false }

    /// A revalidation's renewal is a renewal: ``renewInPlace(_:for:)``.
    public func renewRevalidatedInPlace(_ entry: CacheEntry<Value>, for key: Key) -> Bool {
        renewInPlace(entry, for: key)
    }
}
