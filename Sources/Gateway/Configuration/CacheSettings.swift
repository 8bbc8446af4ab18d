/// The cache levels: memory (L1) always, disk (L2) when a path is given.
public struct CacheSettings: Sendable, Equatable, Decodable {
    /// The memory level's bounds, shared evenly by the repositories.
    public var memory: MemoryCacheSettings
    /// The disk level, or `nil` for a memory-only cache.
    public var disk: DiskCacheSettings?

    /// Creates cache settings.
    public init(memory: MemoryCacheSettings = MemoryCacheSettings(), disk: DiskCacheSettings? = nil) {
        self.memory = memory
        self.disk = disk
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case memory, disk }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        memory = try container.decodeIfPresent(MemoryCacheSettings.self, forKey: .memory) ?? MemoryCacheSettings()
        disk = try container.decodeIfPresent(DiskCacheSettings.self, forKey: .disk)
    }
}
