import RDS

/// A failure to carry an exchange to an upstream. Messages name the endpoint, never a URL's query
/// or any header value (they may hold API keys).
public struct TransportError: ChainedError {
    /// What went wrong.
    public enum Kind: String, Sendable {
        /// No answer within a timeout; `details["phase"]` says which (`connect`, `first_byte`, `total`).
        case timeout = "transport_timeout"
        /// The upstream refused the connection or could not be reached.
        case refused = "transport_refused"
        /// The exchange failed for another reason (connection reset, TLS, DNS, …).
        case failed = "transport_failed"
        /// The upstream's answer was not valid HTTP.
        case malformedResponse = "transport_malformed_response"
        /// The exchange was abandoned because the caller went away.
        case cancelled = "transport_cancelled"
    }

    /// The kind of failure.
    public let kind: Kind
    /// A human-readable message.
    public let message: String
    /// Extra context, such as `endpoint` and `phase`.
    public let details: [String: String]
    /// The lower-level error, if any.
    public let inner: (any Error)?
    /// The stable code of ``kind``.
    public var code: String { kind.rawValue }

    /// Creates a transport error.
    public init(_ kind: Kind, _ message: String, details: [String: String] = [:], inner: (any Error)? = nil) {
        self.kind = kind
        self.message = message
        self.details = details
        self.inner = inner
    }
}
