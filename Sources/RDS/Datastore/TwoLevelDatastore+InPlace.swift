extension TwoLevelDatastore {
    /// The disk level's entry for `key` when it reads it in place (``FileDatastore/entryInPlace(for:)``:
    /// the file wholly in the page cache, nothing changing it), promoted into the memory level
    /// as ``get(_:)`` promotes; `nil` when it cannot (``get(_:)`` then tells). Never suspends,
    /// never waits for the disk: the event loop's fast path calls it after a ``peek(_:)`` that
    /// found nothing, and answers a disk hit as it answers a memory hit.
    public func promotedEntryInPlace<K, V>(for key: Key) -> CacheEntry<Value>?
    where L1 == MemoryDatastore<K, V>, L2 == FileDatastore<K, V> {
        let writesBefore = writesSoFar
        guard let entry = l2.entryInPlace(for: key) else { return nil }
        guard mayPromote(since: writesBefore) else { return entry }
        l1.store(entry, for: key)
        if promotionRaced(since: writesBefore) { l1.remove(key) }
        return entry
    }
}
