/// Which side is the source of truth while a value is fresh.
public enum RepositoryMode: String, Sendable, Equatable, Decodable, CaseIterable {
    /// The cache answers while fresh; the service is asked on a miss or when stale.
    case cacheFirst = "cache-first"
    /// The service is asked every time; the cache answers only when the service fails.
    case networkFirst = "network-first"
}
