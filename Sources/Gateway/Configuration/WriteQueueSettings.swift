import Foundation

/// The durable outbox of a read-write repository (`repositories.<name>.writes.queue`, opt-in):
/// writes the upstream could not take are journaled on disk, acknowledged with 202 and replayed.
public struct WriteQueueSettings: Sendable, Equatable, Decodable {
    /// The most writes waiting at once; beyond it a write that would queue is answered 503.
    public var maxPending: Int
    /// Seconds a queued write may wait; older ones are dead-lettered as expired.
    public var maxAge: TimeInterval
    /// How many resources are replayed at once (each resource's writes stay in order).
    public var parallelKeys: Int
    /// The first retry delay in seconds, doubled per attempt (with jitter).
    public var retryBase: TimeInterval
    /// The longest retry delay in seconds (a longer `Retry-After` is honoured).
    public var retryMax: TimeInterval

    /// Creates outbox settings.
    public init(
        maxPending: Int = 10_000, maxAge: TimeInterval = 86_400, parallelKeys: Int = 4, retryBase: TimeInterval = 1,
        retryMax: TimeInterval = 60
    ) {
        self.maxPending = maxPending
        self.maxAge = maxAge
        self.parallelKeys = parallelKeys
        self.retryBase = retryBase
        self.retryMax = retryMax
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case maxPending, maxAge, parallelKeys, retryBase, retryMax }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = WriteQueueSettings()
        maxPending = try container.decodeIfPresent(Int.self, forKey: .maxPending) ?? defaults.maxPending
        maxAge = try container.decodeIfPresent(TimeInterval.self, forKey: .maxAge) ?? defaults.maxAge
        parallelKeys = try container.decodeIfPresent(Int.self, forKey: .parallelKeys) ?? defaults.parallelKeys
        retryBase = try container.decodeIfPresent(TimeInterval.self, forKey: .retryBase) ?? defaults.retryBase
        retryMax = try container.decodeIfPresent(TimeInterval.self, forKey: .retryMax) ?? defaults.retryMax
    }
}
