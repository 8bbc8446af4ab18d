/// The first line of a message: a request line or a status line.
protocol HTTPStartLine: Sendable {
    /// Parses the line (CRLF excluded).
    static func parse(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> Self
    /// The error for a line longer than `HTTPParserLimits.maxRequestLineBytes`.
    static var tooLong: HTTPParseError { get }
}
