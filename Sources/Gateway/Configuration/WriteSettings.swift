import Foundation

/// How a read-write repository handles writes (`repositories.<name>.writes`).
public struct WriteSettings: Sendable, Equatable, Decodable {
    /// How long, in seconds, the answer to a write carrying an `Idempotency-Key` is remembered and
    /// replayed to a retry with the same key (on disk when the cache has a disk level). A day by default.
    public var idempotencyRetention: TimeInterval
    /// How many idempotency keys are remembered at most; the oldest are forgotten first.
    public var maxIdempotencyKeys: Int
    /// The durable outbox, when writes the upstream cannot take now are to be queued (needs `cache.disk`).
    public var queue: WriteQueueSettings?

    /// Creates write settings.
    public init(
        idempotencyRetention: TimeInterval = 86_400, maxIdempotencyKeys: Int = 10_000, queue: WriteQueueSettings? = nil
    ) {
        self.idempotencyRetention = idempotencyRetention
        self.maxIdempotencyKeys = maxIdempotencyKeys
        self.queue = queue
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case idempotencyRetention, maxIdempotencyKeys, queue }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = WriteSettings()
        idempotencyRetention =
            try container.decodeIfPresent(TimeInterval.self, forKey: .idempotencyRetention)
            ?? defaults.idempotencyRetention
        maxIdempotencyKeys =
            try container.decodeIfPresent(Int.self, forKey: .maxIdempotencyKeys) ?? defaults.maxIdempotencyKeys
        queue = try container.decodeIfPresent(WriteQueueSettings.self, forKey: .queue)
    }
}
