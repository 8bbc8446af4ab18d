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
}

extension PeekableDatastore {
    /// No level below memory answers without waiting: `nil`.
    public func peekBelow(_ key: Key) -> CacheEntry<Value>? { nil }
}
