import Glibc

/// A failed socket operation: which call failed, on what, and the system's reason.
///
/// `description` reads like `bind(127.0.0.1:8080) failed: Address already in use (errno 98)`.
public struct SocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failed call and its subject, e.g. `bind(127.0.0.1:8080)`.
    public let operation: String
    /// The `errno` value (or `EINVAL` for an address that could not be resolved).
    public let code: Int32
    /// The system's text for the error, from `strerror` (or the resolver's `gai_strerror`).
    public let message: String

    /// Creates an error from an `errno` value; the message is `strerror(code)`.
    public init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
        self.message = String(cString: strerror(code))
    }

    /// Creates an error with an explicit message.
    public init(operation: String, code: Int32, message: String) {
        self.operation = operation
        self.code = code
        self.message = message
    }

    /// The error for the calling thread's current `errno`.
    public static func current(_ operation: @autoclosure () -> String) -> SocketError {
        let code = errno
        return SocketError(operation: operation(), code: code)
    }

    /// The call, the reason and the errno.
    public var description: String { "\(operation) failed: \(message) (errno \(code))" }
}
