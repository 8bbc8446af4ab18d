/// What the shared level has done so far in this process, for `/metrics` and `/health/ready`.
public struct SharedCacheStatistics: Sendable, Equatable {
    /// `true` while commands fail or the invalidation stream is not being read: the replica runs
    /// on its own levels.
    public var isDegraded: Bool { commandsFailing || !streamJoined }
    /// The last command failed (cleared by the next success).
    public var commandsFailing = false
    /// The invalidation stream is being read.
    public var streamJoined = false
    /// The last failure's code and message (no secrets), while degraded.
    public var lastError: String?
    /// Failed Redis commands.
    public var errors = 0
    /// Reads answered as a miss and writes skipped because Redis failed.
    public var fallbacks = 0
    /// Shared-level hits (memory and disk missed, Redis had it).
    public var hits = 0
    /// Shared-level misses.
    public var misses = 0
    /// Invalidations announced on the stream.
    public var announced = 0
    /// Invalidations from other replicas applied to the local levels.
    public var applied = 0
    /// Fetches that waited for another replica's fetch of the same key.
    public var leaseWaits = 0
    /// Local levels flushed because news may have been missed (a gap, a restart, a rejoin).
    public var flushes = 0

    /// Nothing done yet: not joined, no failure.
    public init() {}
}
