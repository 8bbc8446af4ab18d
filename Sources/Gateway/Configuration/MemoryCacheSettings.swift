/// The bounds of the memory cache level.
public struct MemoryCacheSettings: Sendable, Equatable, Decodable {
    /// The most bytes held in memory, all repositories together.
    public var maxBytes: Int
    /// The most entries held in memory, all repositories together.
    public var maxEntries: Int

    /// Creates memory bounds.
    public init(maxBytes: Int = 64 * 1_048_576, maxEntries: Int = 10_000) {
        self.maxBytes = maxBytes
        self.maxEntries = maxEntries
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case maxBytes, maxEntries }

    /// Decodes the bounds, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = MemoryCacheSettings()
        maxBytes = try container.decodeIntegerIfPresent(forKey: .maxBytes) ?? defaults.maxBytes
        maxEntries = try container.decodeIntegerIfPresent(forKey: .maxEntries) ?? defaults.maxEntries
    }
}
