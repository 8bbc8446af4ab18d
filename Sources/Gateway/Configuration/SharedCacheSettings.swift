/// The shared cache level beside each replica's own levels (`cache.shared`).
public struct SharedCacheSettings: Sendable, Equatable, Decodable {
    /// The Redis (or Valkey) server every replica shares.
    public var redis: RedisSettings

    /// Creates shared-cache settings.
    public init(redis: RedisSettings) {
        self.redis = redis
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case redis }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        redis = try container.decode(RedisSettings.self, forKey: .redis)
    }
}
