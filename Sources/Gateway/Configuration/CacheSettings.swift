/// The cache levels: memory (L1) always, disk (L2) when a path is given, and a shared Redis level
/// below them when `shared` is set.
public struct CacheSettings: Sendable, Equatable, Decodable {
    /// The memory level's bounds, shared evenly by the repositories.
    public var memory: MemoryCacheSettings
    /// The disk level, or `nil` for a memory-only cache.
    public var disk: DiskCacheSettings?
    /// The level shared by every replica, or `nil` for a cache of this process alone.
    public var shared: SharedCacheSettings?
    /// The most bytes held at once for upstream answers still arriving, all repositories
    /// together; past it a large answer is refused (503 with `Retry-After`). 1 MiB to 1 TiB;
    /// default 256 MiB.
    public var inFlightBodyBytes: Int

    /// Creates cache settings.
    public init(
        memory: MemoryCacheSettings = MemoryCacheSettings(), disk: DiskCacheSettings? = nil,
        shared: SharedCacheSettings? = nil, inFlightBodyBytes: Int = 256 * 1_048_576
    ) {
        self.memory = memory
        self.disk = disk
        self.shared = shared
        self.inFlightBodyBytes = inFlightBodyBytes
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case memory, disk, shared, inFlightBodyBytes }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        memory = try container.decodeIfPresent(MemoryCacheSettings.self, forKey: .memory) ?? MemoryCacheSettings()
        disk = try container.decodeIfPresent(DiskCacheSettings.self, forKey: .disk)
        shared = try container.decodeIfPresent(SharedCacheSettings.self, forKey: .shared)
        inFlightBodyBytes =
            try container.decodeIntegerIfPresent(forKey: .inFlightBodyBytes) ?? CacheSettings().inFlightBodyBytes
    }
}
