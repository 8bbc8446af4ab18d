/// A pure, incremental HTTP/1.1 response parser for the client, sharing the request parser's
/// head, field, framing and chunked code.
///
/// One parser reads the responses to requests of one `requestMethod` (HEAD answers carry no
/// body). Bodies are framed by `Content-Length`, chunked coding, or the connection's end: pass
/// `endOfStream: true` once the peer has closed, and an until-close body completes. Interim 1xx
/// responses come out as complete responses without a body; skip them and parse on.
public struct HTTPResponseParser: Sendable {
    /// The limits enforced (the request-line limit applies to the status line).
    public let limits: HTTPParserLimits
    /// The method of the request being answered.
    public let requestMethod: HTTPMethod
    /// The version of the last complete response, e.g. to honour HTTP/1.0's default close.
    public private(set) var version: HTTPVersion?
    private var reader: HTTPMessageReader<HTTPStatusLine>

    /// Creates a parser for responses to `requestMethod`; with `keepingFieldLines`, each response
    /// carries its field lines as received (``HTTPResponse/fieldLines``) and its `headers` hold
    /// only the framing fields (`Content-Length`, `Transfer-Encoding`, `Connection`), unless its
    /// head holds a byte above 0x7F: then it has every field, as without.
    public init(
        requestMethod: HTTPMethod = .get, limits: HTTPParserLimits = HTTPParserLimits(), keepingFieldLines: Bool = false
    ) {
        self.requestMethod = requestMethod
        self.limits = limits
        reader = HTTPMessageReader(keepingLines: keepingFieldLines)
    }

    /// Parses the next response at the start of `buffer`; `endOfStream` says the peer has closed.
    public mutating func parse(_ buffer: UnsafeRawBufferPointer, endOfStream: Bool = false) -> HTTPParseResult<
        HTTPResponse
    > {
        let (limits, method) = (self.limits, requestMethod)
        let framing = { (head: HTTPMessageReader<HTTPStatusLine>.Head) throws(HTTPParseError) in
            try HTTPBodyFraming.response(
                status: head.startLine.status, to: method, head.headers, version: head.startLine.version, limits: limits
            )
        }
        switch reader.read(buffer, limits: limits, endOfStream: endOfStream, framing: framing) {
        case .incomplete: return .incomplete
        case .invalid(let error): return .invalid(error)
        case .complete(let message, let consumed):
            version = message.head.startLine.version
            var response = HTTPResponse(
                status: message.head.startLine.status, headers: message.head.headers, bytes: message.body)
            response.fieldLines = message.head.fieldLines
            return .complete(response, consumed: consumed)
        }
    }

    /// The `Content-Length` of the response whose head is in and whose body is still arriving
    /// (`nil` when it has none, or carries no body: to HEAD, 1xx, 204, 304).
    public var announcedBodyLength: Int? {
        guard let head = reader.head,
            HTTPSerializer.allowsBody(status: head.startLine.status, requestMethod: requestMethod)
        else { return nil }
        return head.headers["Content-Length"].flatMap { Int($0) }
    }

    /// Parses the next response at the start of `bytes`.
    public mutating func parse(_ bytes: [UInt8], endOfStream: Bool = false) -> HTTPParseResult<HTTPResponse> {
        bytes.withUnsafeBytes { parse($0, endOfStream: endOfStream) }
    }
}
