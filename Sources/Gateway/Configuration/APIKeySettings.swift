/// Where a service's API key comes from (an environment variable or a file) and how it is sent
/// (a header or a query parameter). Exactly one source and one placement must be given.
public struct APIKeySettings: Sendable, Equatable, Decodable {
    /// The environment variable holding the key.
    public var env: String?
    /// The file holding the key (surrounding whitespace is trimmed).
    public var file: String?
    /// The request header that carries the key, e.g. `X-API-Key`.
    public var header: String?
    /// The query parameter that carries the key, e.g. `appid`.
    public var query: String?

    /// Creates API key settings.
    public init(env: String? = nil, file: String? = nil, header: String? = nil, query: String? = nil) {
        self.env = env
        self.file = file
        self.header = header
        self.query = query
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case env, file, header, query }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        env = try container.decodeIfPresent(String.self, forKey: .env)
        file = try container.decodeIfPresent(String.self, forKey: .file)
        header = try container.decodeIfPresent(String.self, forKey: .header)
        query = try container.decodeIfPresent(String.self, forKey: .query)
    }
}
