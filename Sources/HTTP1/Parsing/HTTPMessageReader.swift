/// The state machine both parsers share: head, then body by its framing, then a fresh start.
/// A parse error is final: every later call reports it again.
struct HTTPMessageReader<StartLine: HTTPStartLine>: Sendable {
    /// A parsed head.
    struct Head: Sendable {
        var startLine: StartLine
        var headers: HTTPHeaders
    }

    /// A whole message.
    struct Message: Sendable {
        var head: Head
        var body: [UInt8]
    }

    private var headReader = HTTPHeadReader<StartLine>()
    /// The head once parsed, while its body is still arriving.
    private(set) var head: Head?
    private var body: HTTPBodyReader?
    private var failure: HTTPParseError?

    /// Reads what `buffer` holds beyond the previous call; `framing` decides (or rejects) the
    /// body once the head is in.
    mutating func read(
        _ buffer: UnsafeRawBufferPointer, limits: HTTPParserLimits, endOfStream: Bool,
        framing: (Head) throws(HTTPParseError) -> HTTPBodyFraming
    ) -> HTTPParseResult<Message> {
        if let failure { return .invalid(failure) }
        let result = step(buffer, limits: limits, endOfStream: endOfStream, framing: framing)
        switch result {
        case .complete: self = HTTPMessageReader()
        case .invalid(let error): failure = error
        case .incomplete: break
        }
        return result
    }

    private mutating func step(
        _ buffer: UnsafeRawBufferPointer, limits: HTTPParserLimits, endOfStream: Bool,
        framing: (Head) throws(HTTPParseError) -> HTTPBodyFraming
    ) -> HTTPParseResult<Message> {
        guard let head else {
            switch headReader.read(buffer, limits: limits) {
            case .incomplete: return .incomplete
            case .invalid(let error): return .invalid(error)
            case .complete(let startLine, let headers, let end):
                let parsed = Head(startLine: startLine, headers: headers)
                var reader: HTTPBodyReader
                do throws(HTTPParseError) {
                    reader = HTTPBodyReader(framing: try framing(parsed), start: end)
                } catch {
                    return .invalid(error)
                }
                // A message whose body is in too (most are) never passes through the stored state.
                let result = Self.message(parsed, reader.read(buffer, limits: limits, endOfStream: endOfStream))
                if case .incomplete = result {
                    head = parsed
                    body = reader
                }
                return result
            }
        }
        return Self.message(head, body?.read(buffer, limits: limits, endOfStream: endOfStream))
    }

    /// The message of `head` once its body reader's `outcome` is complete.
    private static func message(_ head: Head, _ outcome: HTTPBodyReader.Outcome?) -> HTTPParseResult<Message> {
        switch outcome {
        case .complete(let bytes, let end): .complete(Message(head: head, body: bytes), consumed: end)
        case .invalid(let error): .invalid(error)
        case .incomplete, nil: .incomplete
        }
    }
}
