/// Reads a body after the head, by the framing the head declared.
struct HTTPBodyReader: Sendable {
    /// What a call found.
    enum Outcome {
        case incomplete
        /// The body, which ends just before `end`.
        case complete([UInt8], end: Int)
        case invalid(HTTPParseError)
    }

    private let framing: HTTPBodyFraming
    private let start: Int
    /// Kept out of `framing` so it is mutated in place (no copy of its growing body).
    private var chunked: HTTPChunkedDecoder?

    /// Reads a body with `framing` that starts at `start`.
    init(framing: HTTPBodyFraming, start: Int) {
        self.framing = framing
        self.start = start
        self.chunked = framing == .chunked ? HTTPChunkedDecoder(start: start) : nil
    }

    /// Reads what `buffer` holds beyond the previous call; `endOfStream` ends an until-close body.
    mutating func read(_ buffer: UnsafeRawBufferPointer, limits: HTTPParserLimits, endOfStream: Bool) -> Outcome {
        switch framing {
        case .length(let length):
            guard buffer.count - start >= length else { return .incomplete }
            return .complete(Self.bytes(buffer, start..<(start + length)), end: start + length)
        case .untilClose:
            guard buffer.count - start <= limits.maxBodyBytes else {
                return .invalid(
                    HTTPParseError(
                        status: 413, code: .bodyTooLarge,
                        message: "The body is larger than \(limits.maxBodyBytes) bytes."))
            }
            guard endOfStream else { return .incomplete }
            return .complete(Self.bytes(buffer, start..<buffer.count), end: buffer.count)
        case .chunked:
            switch chunked?.read(buffer, limits: limits) {
            case .complete(let end): return .complete(chunked?.body ?? [], end: end)
            case .invalid(let error): return .invalid(error)
            case .incomplete, nil: return .incomplete
            }
        }
    }

    private static func bytes(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) -> [UInt8] {
        Array(UnsafeRawBufferPointer(rebasing: buffer[range]).assumingMemoryBound(to: UInt8.self))
    }
}
