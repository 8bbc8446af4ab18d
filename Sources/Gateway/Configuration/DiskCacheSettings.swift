/// The disk cache level.
public struct DiskCacheSettings: Sendable, Equatable, Decodable {
    /// The folder holding the cache files (one subfolder per repository), created when missing.
    public var path: String

    /// Creates disk settings.
    public init(path: String) { self.path = path }

    enum CodingKeys: String, CodingKey, CaseIterable { case path }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
    }
}
