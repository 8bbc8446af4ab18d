import Synchronization

/// An in-memory, least-recently-used datastore bounded by total bytes and by entry count.
///
/// Each entry is accounted as `key.byteCount + value.byteCount + entryOverhead` bytes. When a
/// save takes the store past either bound, the least recently used entries are evicted until
/// it fits again. A `get` or a ``peek(_:)`` counts as a use. Expired entries are not removed:
/// they stay readable as stale until they are evicted or deleted.
///
/// All state sits behind one `Mutex` that is held only for an O(1) table operation, never across
/// an `await` or I/O, so a lookup never waits behind I/O and the store is safe from any task.
/// The operations are `@inlinable` so that callers in other modules get them specialised for
/// their key and value types: in the benchmark that doubles get and save throughput.
public final class MemoryDatastore<Key: Hashable & Sendable & ByteCounted, Value: Sendable & ByteCounted>:
    PeekableDatastore
{
    /// The fixed number of bytes accounted per entry on top of the key's and value's byte counts.
    ///
    /// It stands for what each entry costs besides its payload: its slot in the LRU table (the
    /// key and the ``CacheEntry`` with its dates and validators, about 90 bytes), its recency node
    /// (16), its bucket in the key index (about 30 with the load factor), the heap headers of its
    /// value (about 40) and the slack of growing arrays. The datastore benchmark measured about
    /// 230 bytes per entry beyond key and value for 100,000 entries of 1 KB; 200 keeps the
    /// accounted size within a few percent of the resident memory.
    public static var entryOverhead: Int { 200 }

    /// The bound on the accounted size of all entries, in bytes.
    public let maxBytes: Int
    /// The bound on the number of entries.
    public let maxEntries: Int

    /// Everything the lock guards.
    @usableFromInline
    struct State {
        @usableFromInline var table = LRUTable<Key, CacheEntry<Value>>()
        @usableFromInline var evictions = 0
        @inlinable init() {}
    }

    /// The table and counters, behind the one lock.
    @usableFromInline let state = Mutex(State())

    /// Creates an empty store.
    /// - Parameters:
    ///   - maxBytes: The bound on the accounted size of all entries; a negative value counts as 0.
    ///   - maxEntries: The bound on the number of entries; a negative value counts as 0.
    public init(maxBytes: Int, maxEntries: Int) {
        self.maxBytes = max(0, maxBytes)
        self.maxEntries = max(0, maxEntries)
    }

    /// The number of entries, their accounted size and the evictions so far.
    public var statistics: DatastoreStatistics {
        state.withLock { state in
            DatastoreStatistics(entries: state.table.count, bytes: state.table.totalCost, evictions: state.evictions)
        }
    }

    /// The keys from the most to the least recently used (the eviction order, reversed).
    public var keysByRecency: [Key] {
        state.withLock { $0.table.keysNewestFirst }
    }

    /// Returns the entry for `key` without suspending, and marks it as the most recently used.
    @inlinable public func peek(_ key: Key) -> CacheEntry<Value>? {
        state.withLock { $0.table.value(for: key, markUsed: true) }
    }

    /// Returns the entry for `key`, fresh or stale, and marks it as the most recently used.
    @inlinable public func get(_ key: Key) async -> CacheEntry<Value>? {
        peek(key)
    }

    /// Stores `entry` as the most recently used entry, evicting the least recently used ones
    /// until both bounds hold again.
    ///
    /// An entry that alone exceeds ``maxBytes`` is not kept; any previous entry for `key` is
    /// removed then too, so a superseded value is never served.
    @inlinable public func save(_ entry: CacheEntry<Value>, for key: Key) async {
        store(entry, for: key)
    }

    /// Stores the renewal (``store(_:for:)``), without suspending: `true`.
    @inlinable public func renewInPlace(_ entry: CacheEntry<Value>, for key: Key) -> Bool {
        store(entry, for: key)
        return true
    }

    /// ``save(_:for:)`` without suspending, for callers on the event loop's fast path.
    @inlinable public func store(_ entry: CacheEntry<Value>, for key: Key) {
        let cost = key.byteCount + entry.value.byteCount + Self.entryOverhead
        state.withLock { state in
            guard cost <= maxBytes, maxEntries > 0 else {
                state.table.removeValue(for: key)
                return
            }
            state.table.setValue(entry, cost: cost, for: key)
            while state.table.totalCost > maxBytes || state.table.count > maxEntries {
                state.table.removeOldest()
                state.evictions += 1
            }
        }
    }

    /// Removes the entry for `key`, if any.
    @inlinable public func delete(_ key: Key) async {
        remove(key)
    }

    /// ``delete(_:)`` without suspending, for callers on the event loop's fast path.
    @inlinable public func remove(_ key: Key) {
        state.withLock { _ = $0.table.removeValue(for: key) }
    }

    /// Removes every entry; the eviction count is kept.
    @inlinable public func deleteAll() async {
        state.withLock { $0.table.removeAll() }
    }
}
