/// The state machine both parsers share: head, then body by its framing, then a fresh start.
/// A parse error is final: every later call reports it again.
struct HTTPMessageReader<StartLine: HTTPStartLine>: Sendable {
    /// A parsed head.
    struct Head: Sendable {
        var startLine: StartLine
        var headers: HTTPHeaders
        /// The head's lines, when kept (``HTTPHeadReader/init(keepingLines:)``).
        var fieldLines: HTTPFieldLines?
    }

    /// A whole message.
    struct Message: Sendable {
        var head: Head
        var body: [UInt8]
    }

    private var headReader: HTTPHeadReader<StartLine>
    /// The head once parsed, while its body is still arriving.
    private(set) var head: Head?
    private var body: HTTPBodyReader?
    private var failure: HTTPParseError?

    /// A reader making each head's fields, or keeping its lines when `keepingLines`.
    @inline(__always)
    init(keepingLines: Bool = false) {
        headReader = HTTPHeadReader(keepingLines: keepingLines)
    }

    /// Reads what `buffer` holds beyond the previous call; `framing` decides (or rejects) the
    /// body once the head is in.
    mutating func read(
        _ buffer: UnsafeRawBufferPointer, limits: HTTPParserLimits, endOfStream: Bool,
        framing: (Head) throws(HTTPParseError) -> HTTPBodyFraming
    ) -> HTTPParseResult<Message> {
        if let failure { return .invalid(failure) }
        return step(buffer, limits: limits, endOfStream: endOfStream, framing: framing)
    }

    private mutating func step(
        _ buffer: UnsafeRawBufferPointer, limits: HTTPParserLimits, endOfStream: Bool,
        framing: (Head) throws(HTTPParseError) -> HTTPBodyFraming
    ) -> HTTPParseResult<Message> {
        guard let head else {
            switch headReader.read(buffer, limits: limits) {
            case .incomplete: return .incomplete
            case .invalid(let error): return failed(error)
            case .complete(let startLine, let headers, let lines, let end):
                let parsed = Head(startLine: startLine, headers: headers, fieldLines: lines)
                let bodyFraming: HTTPBodyFraming
                do throws(HTTPParseError) {
                    bodyFraming = try framing(parsed)
                } catch {
                    return failed(error)
                }
                // A message without a body (a GET, a 304) is complete with its head: no body
                // reader made and destroyed (its optional chunked decoder is copied through witnesses).
                if bodyFraming == .length(0) { return completed(consume parsed, body: [], end: end) }
                var reader = HTTPBodyReader(framing: bodyFraming, start: end)
                // A message whose body is in too (most are) never passes through the stored state.
                switch reader.read(buffer, limits: limits, endOfStream: endOfStream) {
                case .complete(let bytes, let end): return completed(consume parsed, body: bytes, end: end)
                case .invalid(let error): return failed(error)
                case .incomplete:
                    head = parsed
                    body = reader
                    return .incomplete
                }
            }
        }
        switch body?.read(buffer, limits: limits, endOfStream: endOfStream) {
        case .complete(let bytes, let end): return completed(head, body: bytes, end: end)
        case .invalid(let error): return failed(error)
        case .incomplete, nil: return .incomplete
        }
    }

    /// The message of `head` and `body`, which ends before `end`; the reader starts afresh.
    /// (The result is made here, where it is returned: a result inspected on its way out was
    /// copied, and the copy destroyed. A head just parsed is handed in with `consume`: borrowed,
    /// it was copied into the message and destroyed after, through outlined witnesses.)
    private mutating func completed(_ head: consuming Head, body: consuming [UInt8], end: Int)
        -> HTTPParseResult<Message>
    {
        self = HTTPMessageReader(keepingLines: headReader.keepsLines)
        return .complete(Message(head: head, body: body), consumed: end)
    }

    /// `error`, reported again by every later call.
    private mutating func failed(_ error: HTTPParseError) -> HTTPParseResult<Message> {
        failure = error
        return .invalid(error)
    }
}
