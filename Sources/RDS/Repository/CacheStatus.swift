/// How a ``RepositoryAnswer`` was produced, as the `X-Cache` and `Cache-Status` headers report it.
public enum CacheStatus: String, Sendable, Hashable, Codable {
    /// A fresh stored value, without asking the service.
    case hit
    /// A new value from the service, stored for later.
    case miss
    /// A stale stored value (stale-while-revalidate, or stale-if-error with ``RepositoryAnswer/error`` set).
    case stale
    /// The stored value, renewed by the service's "not modified".
    case revalidated
    /// A value from the service that the upstream forbade storing.
    case bypass
}
