/// Which parts of a request, besides its path, make up the cache key (and are sent upstream).
public struct CacheKeySettings: Sendable, Equatable, Decodable {
    /// The query parameters that take part.
    public var query: QuerySelection
    /// The request headers that take part, e.g. `Accept-Language`.
    public var headers: [String]

    /// Creates cache-key settings.
    public init(query: QuerySelection = .all, headers: [String] = []) {
        self.query = query
        self.headers = headers
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case query, headers }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        query = try container.decodeIfPresent(QuerySelection.self, forKey: .query) ?? .all
        headers = try container.decodeIfPresent([String].self, forKey: .headers) ?? []
    }
}
