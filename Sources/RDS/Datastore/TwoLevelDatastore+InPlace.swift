extension TwoLevelDatastore {
    /// The entry `read` finds for `key` in L2 without waiting (for a disk level,
    /// ``FileDatastore/entryInPlace(for:)``: its file wholly in the page cache, nothing changing
    /// it), promoted into the memory level as ``get(_:)`` promotes; `nil` when it finds none
    /// (``get(_:)`` then tells). Never suspends: the event loop's fast path calls it after a
    /// ``peek(_:)`` that found nothing, and answers a disk hit as it answers a memory hit.
    /// - Parameter read: Reads L2, or the disk level at its front, without waiting.
    public func promotedEntryInPlace<K, V>(
        for key: Key, readingL2 read: (L2) -> CacheEntry<Value>?
    ) -> CacheEntry<Value>? where L1 == MemoryDatastore<K, V> {
        let writesBefore = writesSoFar
        guard let entry = read(l2) else { return nil }
        guard mayPromote(since: writesBefore) else { return entry }
        l1.store(entry, for: key)
        if promotionRaced(since: writesBefore) { l1.remove(key) }
        return entry
    }

    /// Renews `entry` for `key` in both levels without suspending (see
    /// ``PeekableDatastore/renewInPlace(_:for:)``) when `renew` renews it in L2 so (for a disk
    /// level, ``FileDatastore/renewInPlace(_:for:)``), then in the memory level; `false`, with
    /// nothing changed, when L2 cannot (``renew(_:for:)`` then renews both). L2 goes first here so
    /// that a refusal leaves L1 as it was; a read meanwhile finds L1's older entry, as it would
    /// before the renewal.
    public func renewInPlace<K, V>(
        _ entry: CacheEntry<Value>, for key: Key, renewingL2 renew: (L2) -> Bool
    ) -> Bool where L1 == MemoryDatastore<K, V> {
        beginWrite()
        defer { endWrite() }
        guard renew(l2) else { return false }
        l1.store(entry, for: key)
        return true
    }
}
