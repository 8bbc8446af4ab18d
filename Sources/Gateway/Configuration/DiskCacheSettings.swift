/// The disk cache level.
public struct DiskCacheSettings: Sendable, Equatable, Decodable {
    /// The folder holding the cache files (one subfolder per repository), created when missing.
    /// Missing or empty in the file: the loader puts the per-user, per-configuration default there.
    public var path: String
    /// The most bytes kept on disk, all repositories together (oldest files go first); `nil` for no bound.
    public var maxBytes: Int?

    /// Creates disk settings.
    public init(path: String, maxBytes: Int? = nil) {
        self.path = path
        self.maxBytes = maxBytes
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case path, maxBytes }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decodeIfPresent(String.self, forKey: .path) ?? ""
        maxBytes = try container.decodeIntegerIfPresent(forKey: .maxBytes)
    }
}
