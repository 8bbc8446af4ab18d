/// A failure of a repository operation, wrapping the service or datastore error behind it.
/// `details` hold extra context, such as `repository` and `key`.
public typealias RepositoryError = LayerError<RepositoryErrorKind>

/// What went wrong (``RepositoryError``'s `Kind`); the raw value is the stable `code`.
public enum RepositoryErrorKind: String, Sendable {
    /// Fetching from the service failed and nothing usable was cached.
    case fetchFailed = "fetch_failed"
    /// A fetch passed its deadline.
    case deadlineExceeded = "fetch_deadline_exceeded"
    /// A save or delete was rejected by the service; the datastore keeps the source's value.
    case writeFailed = "write_failed"
    /// The caller stopped waiting.
    case cancelled = "cancelled"
    /// The fetch the caller waited for was cancelled by an administrator.
    case fetchCancelled = "fetch_cancelled"
}
