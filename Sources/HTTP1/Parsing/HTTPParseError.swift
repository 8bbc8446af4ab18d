/// Why bytes are not a valid HTTP/1.1 message, with the status a server answers
/// (400, 413, 414, 431, 501 or 505) and a stable code for logs and error bodies.
public struct HTTPParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status to answer a client with.
    public let status: Int
    /// The stable, machine-readable reason.
    public let code: Code
    /// A human explanation; never contains the offending bytes.
    public let message: String

    /// Creates an error.
    public init(status: Int, code: Code, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// `code: message (status)`.
    public var description: String { "\(code.rawValue): \(message) (\(status))" }

    /// Bytes followed a complete response.
    static let bytesAfterMessage = HTTPParseError.badRequest(
        .bytesAfterMessage, "Bytes followed the end of the response: its framing is wrong, or an answer came unasked.")

    static func badRequest(_ code: Code, _ message: String) -> HTTPParseError {
        HTTPParseError(status: 400, code: code, message: message)
    }
}
