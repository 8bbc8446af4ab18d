import RDS

/// A failure to carry an exchange to an upstream. Messages name the endpoint, never a URL's query
/// or any header value (they may hold API keys).
/// `details` hold extra context, such as `endpoint` and `phase`.
public typealias TransportError = LayerError<TransportErrorKind>

/// What went wrong (``TransportError``'s `Kind`); the raw value is the stable `code`.
public enum TransportErrorKind: String, Sendable {
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
    /// The answer was refused because the bytes held for answers in flight reached their
    /// process-wide budget (`cache.inFlightBodyBytes`); worth retrying shortly.
    case overBudget = "transport_over_budget"
}
