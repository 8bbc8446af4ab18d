/// A pure, incremental HTTP/1.1 request parser (RFC 9112): no I/O, no per-byte allocation, and
/// no byte examined twice however the request is split across reads.
///
/// Drive it from a read loop:
/// ```swift
/// var parser = HTTPRequestParser()
/// buffer.append(contentsOf: bytesRead)
/// while case .complete(let request, let consumed) = parser.parse(buffer) {
///     buffer.removeFirst(consumed)   // several pipelined requests may be in one buffer
///     respond(to: request)
/// }
/// if parser.takeContinueExpectation() { write("HTTP/1.1 100 Continue\r\n\r\n") }
/// ```
/// After `.incomplete`, call again with the same bytes plus what arrived since. After
/// `.complete`, drop `consumed` bytes; the parser is ready for the next request. After
/// `.invalid`, answer `error.status` with `Connection: close`; the parser stays failed.
public struct HTTPRequestParser: Sendable {
    /// The limits enforced.
    public let limits: HTTPParserLimits
    private var reader = HTTPMessageReader<HTTPRequestLine>()
    private var continueTaken = false

    /// Creates a parser for one connection.
    public init(limits: HTTPParserLimits = HTTPParserLimits()) { self.limits = limits }

    /// Parses the next request at the start of `buffer`.
    public mutating func parse(_ buffer: UnsafeRawBufferPointer) -> HTTPParseResult<HTTPRequest> {
        let limits = self.limits
        let framing = { (head: HTTPMessageReader<HTTPRequestLine>.Head) throws(HTTPParseError) in
            try Self.framing(head, limits: limits)
        }
        switch reader.read(buffer, limits: limits, endOfStream: false, framing: framing) {
        case .incomplete: return .incomplete
        case .invalid(let error): return .invalid(error)
        case .complete(let message, let consumed):
            continueTaken = false
            let line = message.head.startLine
            let request = HTTPRequest(
                method: line.method, target: line.target, version: line.version, headers: message.head.headers,
                body: message.body)
            return .complete(request, consumed: consumed)
        }
    }

    /// Parses the next request at the start of `bytes`.
    public mutating func parse(_ bytes: [UInt8]) -> HTTPParseResult<HTTPRequest> {
        bytes.withUnsafeBytes { parse($0) }
    }

    /// Parses the next request at the start of `bytes`.
    public mutating func parse(_ bytes: ArraySlice<UInt8>) -> HTTPParseResult<HTTPRequest> {
        bytes.withUnsafeBytes { parse($0) }
    }

    /// `true` while a request's head has been parsed and its body is still arriving (the server's
    /// body timeout applies then, its header timeout before).
    public var isReadingBody: Bool { reader.head != nil }

    /// `true` exactly once per request: when its head is in, it carries `Expect: 100-continue`
    /// (HTTP/1.1, RFC 9110 §10.1.1) and its body has not arrived; the server then writes
    /// `HTTP/1.1 100 Continue` before reading on.
    public mutating func takeContinueExpectation() -> Bool {
        guard !continueTaken, let head = reader.head, head.startLine.version.minor >= 1,
            let expect = head.headers["expect"], HTTPHeaders.equalsIgnoringCase(expect, "100-continue")
        else { return false }
        continueTaken = true
        return true
    }

    /// Checks `Host` (RFC 9112 §3.2: exactly one in HTTP/1.1, at most one in HTTP/1.0), then frames the body.
    private static func framing(
        _ head: HTTPMessageReader<HTTPRequestLine>.Head, limits: HTTPParserLimits
    ) throws(HTTPParseError) -> HTTPBodyFraming {
        let version = head.startLine.version
        // Counted over the fields in place (iterating the headers would copy each field, retaining its strings).
        let hostCount = head.headers.fields.withUnsafeBufferPointer { fields in
            var count = 0
            for index in fields.indices where HTTPHeaders.equalsIgnoringCase(fields[index].name, usually: "Host") {
                count += 1
            }
            return count
        }
        guard hostCount == 1 || (hostCount == 0 && version.minor == 0) else {
            throw .badRequest(.invalidHost, "An HTTP/1.1 request needs exactly one Host field.")
        }
        return try HTTPBodyFraming.request(head.headers, version: version, limits: limits)
    }
}
