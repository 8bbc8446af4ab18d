import Foundation

/// The answer of `GET /health/ready`: whether the gateway should get traffic, and why not.
public struct ReadinessReport: Sendable, Hashable, Encodable {
    /// `true` when warm-up is over, the disk cache is writable and no first token request is pending.
    public var ready: Bool
    /// `running` while warm-up loads its keys, then `done`, or `failed` when some could not be loaded.
    public var warmUp: String
    /// The keys warm-up could not load, with their error codes (the first 100); `nil` when none.
    public var warmUpFailures: [WarmUpFailure]? = nil
    /// `writable`, `unwritable` (the folder), `degraded` (the folder is writable but a repository's
    /// disk level is degraded or unavailable; the gateway stays ready) or `none` (no disk cache).
    public var diskCache: String
    /// Why the disk cache is unwritable, when it is.
    public var diskCacheError: String?
    /// Each repository's disk level, by repository name; empty without a disk cache.
    public var diskLevels: [DiskLevelHealth]
    /// `ok`, `degraded` (Redis unreachable, slow or its stream not read: the replica runs on its
    /// own levels and stays ready) or `none` (no shared cache configured).
    public var sharedCache: String = "none"
    /// The shared cache's last error (code and message, no secrets) while degraded.
    public var sharedCacheError: String? = nil
    /// Every upstream service's recent status, by name.
    public var upstreams: [UpstreamHealth]
    /// Each outbox's depth and dead letters, by repository name; empty when no repository queues writes.
    public var writeQueues: [WriteQueueHealth] = []

    /// 200 when ready, 503 when not.
    public var httpStatus: Int { ready ? 200 : 503 }

    /// The report as a JSON object with sorted keys and ISO 8601 dates.
    public func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return (try? encoder.encode(self)).map(Array.init) ?? Array(#"{"ready":false}"#.utf8)
    }
}
