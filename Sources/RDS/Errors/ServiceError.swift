/// A failure of a ``Service`` talking to its upstream.
/// `details` hold extra context, such as `service` and `status`.
public typealias ServiceError = LayerError<ServiceErrorKind>

/// What went wrong (``ServiceError``'s `Kind`); the raw value is the stable `code`, and the HTTP
/// edge maps each kind to a status.
public enum ServiceErrorKind: String, Sendable {
    /// The upstream says the resource does not exist (HTTP 404).
    case notFound = "upstream_not_found"
    /// The upstream answered with something unusable: malformed, or a 5xx (HTTP 502).
    case badResponse = "upstream_bad_response"
    /// The upstream could not be reached, or refused (HTTP 503).
    case unavailable = "upstream_unavailable"
    /// The upstream did not answer in time (HTTP 504).
    case timeout = "upstream_timeout"
    /// The upstream rejected the request with a 4xx other than 404; `details["status"]` has it.
    case rejected = "upstream_rejected"
    /// The service has no credential to send: its token endpoint refused or failed, or its secret
    /// cannot be read (HTTP 503); `inner` says why.
    case authFailed = "upstream_auth_failed"
}
