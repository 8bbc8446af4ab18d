import Sockets

/// Why `HTTPClient.send` failed. Messages name the endpoint (`host:port`), never the target or
/// header values, which may hold API keys.
public struct HTTPClientError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The upstream refused the connection (`ECONNREFUSED`).
        case connectRefused
        /// The connection could not be made for another reason (unreachable, unresolvable, …).
        case connectFailed
        /// No answer within a timeout.
        case timeout(Phase)
        /// The answer is not a valid HTTP/1.1 response.
        case malformedResponse
        /// The upstream closed or reset the connection before the response was complete.
        case connectionClosed
        /// The response's body would take the bytes held for answers in flight past the
        /// client's `HTTPBodyBudget`; the connection was closed.
        case overBudget
    }

    /// Which timeout expired.
    public enum Phase: String, Sendable, Hashable {
        /// Connecting.
        case connect
        /// From sending the request to the answer's first byte.
        case firstByte = "first_byte"
        /// The whole call.
        case total
    }

    /// What went wrong.
    public let kind: Kind
    /// A human explanation naming the endpoint.
    public let message: String
    /// The lower-level cause: a `SocketError` or an `HTTPParseError`.
    public let underlying: (any Error & Sendable)?
    /// Set when the connection was closed before any byte of the answer: a reused connection
    /// the peer had dropped, safe to retry for idempotent methods.
    let closedBeforeAnswer: Bool

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.init(kind, message, underlying: underlying, closedBeforeAnswer: false)
    }

    init(_ kind: Kind, _ message: String, underlying: (any Error & Sendable)?, closedBeforeAnswer: Bool) {
        self.kind = kind
        self.message = message
        self.underlying = underlying
        self.closedBeforeAnswer = closedBeforeAnswer
    }

    /// A stable code: `connect_refused`, `connect_failed`, `timeout`, `malformed_response`,
    /// `connection_closed`, `over_budget`.
    public var code: String {
        switch kind {
        case .connectRefused: "connect_refused"
        case .connectFailed: "connect_failed"
        case .timeout: "timeout"
        case .malformedResponse: "malformed_response"
        case .connectionClosed: "connection_closed"
        case .overBudget: "over_budget"
        }
    }

    /// `code: message`, with the cause.
    public var description: String {
        "\(code): \(message)" + (underlying.map { " (\($0))" } ?? "")
    }
}
