/// A failure of a ``Service`` talking to its upstream.
public struct ServiceError: ChainedError {
    /// What went wrong; the HTTP edge maps each kind to a status.
    public enum Kind: String, Sendable {
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
    }

    /// The kind of failure.
    public let kind: Kind
    /// A human-readable message.
    public let message: String
    /// Extra context, such as `service` and `status`.
    public let details: [String: String]
    /// The wrapped error, usually a transport error.
    public let inner: (any Error)?
    /// The stable code of ``kind``.
    public var code: String { kind.rawValue }

    /// Creates a service error.
    public init(_ kind: Kind, _ message: String, details: [String: String] = [:], inner: (any Error)? = nil) {
        self.kind = kind
        self.message = message
        self.details = details
        self.inner = inner
    }
}
