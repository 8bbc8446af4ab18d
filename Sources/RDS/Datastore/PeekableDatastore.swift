/// A ``Datastore`` whose in-memory level can be read synchronously.
///
/// The HTTP fast path calls ``peek(_:)`` on the event loop to answer cache hits without
/// suspending; anything that needs I/O goes through the `async` ``Datastore/get(_:)``.
public protocol PeekableDatastore<Key, Value>: Datastore {
    /// Returns the in-memory entry for `key`, fresh or stale, or `nil` when it is not in memory.
    ///
    /// Never blocks behind I/O: implementations only take a short lock around an in-memory lookup.
    func peek(_ key: Key) -> CacheEntry<Value>?
}
