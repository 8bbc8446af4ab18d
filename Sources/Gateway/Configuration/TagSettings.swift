/// How a repository reads the tags of its upstream's answers (`repositories.NAME.tags`), for
/// purges by tag.
public struct TagSettings: Sendable, Equatable, Decodable {
    /// The response field naming the tags: `Surrogate-Key` (space-separated) or `Cache-Tag`
    /// (comma-separated); spaces and commas both separate tags in either.
    public var field: String
    /// `true` to pass the field on to clients; by default it is removed from their answers.
    public var expose: Bool
    /// The most (tag, resource) pairs the repository's tag index holds.
    public var maxEntries: Int

    /// Creates settings.
    public init(field: String = "Surrogate-Key", expose: Bool = false, maxEntries: Int = 100_000) {
        self.field = field
        self.expose = expose
        self.maxEntries = maxEntries
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case field, expose, maxEntries }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = TagSettings()
        field = try container.decodeIfPresent(String.self, forKey: .field) ?? defaults.field
        expose = try container.decodeIfPresent(Bool.self, forKey: .expose) ?? defaults.expose
        maxEntries = try container.decodeIntegerIfPresent(forKey: .maxEntries) ?? defaults.maxEntries
    }
}
