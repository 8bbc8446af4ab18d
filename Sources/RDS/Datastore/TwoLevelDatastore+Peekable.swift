extension TwoLevelDatastore: PeekableDatastore where L1: PeekableDatastore {
    /// The first level's entry for `key`, without suspending.
    public func peek(_ key: Key) -> CacheEntry<Value>? {
        l1.peek(key)
    }
}
