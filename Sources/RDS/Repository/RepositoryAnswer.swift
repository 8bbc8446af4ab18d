/// The answer of a repository read.
public struct RepositoryAnswer<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// The stored entry behind the value (timing, validators), or `nil` when the value was not stored.
    public var entry: CacheEntry<Value>?
    /// How the value was produced.
    public var cacheStatus: CacheStatus
    /// Set when the value is served stale because the service failed: a ``RepositoryError`` chain.
    public var error: (any Error)?

    /// Creates an answer.
    public init(value: Value, entry: CacheEntry<Value>?, cacheStatus: CacheStatus, error: (any Error)? = nil) {
        self.value = value
        self.entry = entry
        self.cacheStatus = cacheStatus
        self.error = error
    }
}
