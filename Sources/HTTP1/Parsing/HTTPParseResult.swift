/// What one call to a parser's `parse` found.
public enum HTTPParseResult<Message: Sendable>: Sendable {
    /// A whole message, and how many bytes of the buffer it took (drop them before the next call).
    case complete(Message, consumed: Int)
    /// More bytes are needed: call again with the same bytes plus what arrives next.
    case incomplete
    /// The bytes are not a valid message; answer `error.status` and close the connection.
    case invalid(HTTPParseError)
}
