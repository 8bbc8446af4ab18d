/// A failed Redis operation: a stable kind, a message without secrets, and the server's error
/// text when it sent one.
public struct RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Equatable {
        /// No connection could be made, or the client is backing off after failures.
        case unavailable = "redis_unavailable"
        /// Connecting or a command took longer than its timeout.
        case timeout = "redis_timeout"
        /// The connection broke or the server sent bytes that are not RESP.
        case protocolError = "redis_protocol_error"
        /// The server answered with an error reply (e.g. `WRONGTYPE`, `NOSCRIPT`).
        case server = "redis_server_error"
        /// `AUTH` or `HELLO … AUTH` was refused.
        case authentication = "redis_auth_failed"
        /// Too many commands are queued already.
        case overloaded = "redis_overloaded"
        /// The URL or settings are not usable.
        case configuration = "redis_bad_configuration"
    }

    /// The kind.
    public let kind: Kind
    /// What happened, for operators (never a password).
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The kind's stable code, e.g. `redis_timeout`.
    public var code: String { kind.rawValue }

    /// The code and message.
    public var description: String { "\(code): \(message)" }
}
