/// A failure of a repository operation, wrapping the service or datastore error behind it.
public struct RepositoryError: ChainedError {
    /// What went wrong.
    public enum Kind: String, Sendable {
        /// Fetching from the service failed and nothing usable was cached.
        case fetchFailed = "fetch_failed"
        /// A fetch passed its deadline.
        case deadlineExceeded = "fetch_deadline_exceeded"
        /// A save or delete was rejected by the service; the datastore keeps the source's value.
        case writeFailed = "write_failed"
        /// The caller stopped waiting.
        case cancelled = "cancelled"
    }

    /// The kind of failure.
    public let kind: Kind
    /// A human-readable message.
    public let message: String
    /// Extra context, such as `repository` and `key`.
    public let details: [String: String]
    /// The wrapped error.
    public let inner: (any Error)?
    /// The stable code of ``kind``.
    public var code: String { kind.rawValue }

    /// Creates a repository error.
    public init(_ kind: Kind, _ message: String, details: [String: String] = [:], inner: (any Error)? = nil) {
        self.kind = kind
        self.message = message
        self.details = details
        self.inner = inner
    }
}
