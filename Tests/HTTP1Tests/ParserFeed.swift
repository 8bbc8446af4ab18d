import HTTP1

/// Feeds bytes to a parser the way a read loop does (append, parse, drop what was consumed),
/// cut into pieces at chosen offsets.
enum ParserFeed {
    /// What the loop saw: messages in order, then an error (`status code`) or leftover bytes.
    struct Outcome<Summary: Equatable>: Equatable {
        var messages: [Summary] = []
        var error: String?
        /// Bytes left unconsumed at the end (a partial message).
        var leftover = 0
    }

    /// Feeds `bytes` cut at `cuts`; `endOfStream` is passed with the last piece.
    static func feed<Message, Summary>(
        _ bytes: [UInt8], cuts: [Int], summary: (Message) -> Summary,
        parse: (UnsafeRawBufferPointer, _ endOfStream: Bool) -> HTTPParseResult<Message>
    ) -> Outcome<Summary> {
        var buffer: [UInt8] = []
        var outcome = Outcome<Summary>()
        var start = 0
        let ends = cuts + [bytes.count]
        for (index, end) in ends.enumerated() where end >= start {
            buffer.append(contentsOf: bytes[start..<end])
            start = end
            let endOfStream = index == ends.count - 1
            parsing: while true {
                switch buffer.withUnsafeBytes({ parse($0, endOfStream) }) {
                case .complete(let message, let consumed):
                    outcome.messages.append(summary(message))
                    buffer.removeFirst(consumed)
                case .incomplete:
                    break parsing
                case .invalid(let error):
                    outcome.error = "\(error.status) \(error.code)"
                    return outcome
                }
            }
        }
        outcome.leftover = buffer.count
        return outcome
    }

    /// The feedings every table case goes through: whole, split in two at every offset, byte by byte.
    static func cutsForEveryFeeding(_ count: Int) -> [(String, [Int])] {
        [("whole", [])] + (1..<max(count, 1)).map { ("split at \($0)", [$0]) } + [("byte by byte", Array(0..<count))]
    }

    /// Request outcomes for every feeding.
    static func requests(_ bytes: [UInt8], limits: HTTPParserLimits = HTTPParserLimits())
        -> [(String, Outcome<ParsedRequest>)]
    {
        cutsForEveryFeeding(bytes.count).map { name, cuts in
            var parser = HTTPRequestParser(limits: limits)
            return (name, feed(bytes, cuts: cuts, summary: ParsedRequest.init) { buffer, _ in parser.parse(buffer) })
        }
    }

    /// Response outcomes for every feeding, the stream ending after the last byte.
    static func responses(_ bytes: [UInt8], requestMethod: HTTPMethod = .get, limits: HTTPParserLimits = .init())
        -> [(String, Outcome<ParsedResponse>)]
    {
        cutsForEveryFeeding(bytes.count).map { name, cuts in
            var parser = HTTPResponseParser(requestMethod: requestMethod, limits: limits)
            return (
                name,
                feed(bytes, cuts: cuts, summary: ParsedResponse.init) { buffer, end in
                    parser.parse(buffer, endOfStream: end)
                }
            )
        }
    }
}
