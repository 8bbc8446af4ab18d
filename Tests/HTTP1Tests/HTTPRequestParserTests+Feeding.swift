import HTTP1

/// What a server loop saw while feeding a parser: requests in order, then an error or leftover bytes.
struct ParsedRequest: Equatable, CustomStringConvertible {
    var method: String
    var target: String
    var version: HTTPVersion
    var headers: [String]
    var body: [UInt8]

    init(_ request: HTTPRequest) {
        method = request.method.rawValue
        target = request.target
        version = request.version
        headers = request.headers.map { "\($0.name): \($0.value)" }
        body = request.body
    }

    init(_ method: String, _ target: String, _ headers: [String], _ body: String = "", version: HTTPVersion = .http1_1) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = Array(body.utf8)
    }

    var description: String { "\(method) \(target) \(version) \(headers) \(String(decoding: body, as: UTF8.self))" }
}

/// The outcome of feeding all the bytes.
struct FeedOutcome: Equatable {
    var requests: [ParsedRequest] = []
    /// The error, as `status code`.
    var error: String?
    /// Bytes left unconsumed at the end (a partial request).
    var leftover = 0
}

extension HTTPRequestParserTests {
    /// Feeds `bytes` in pieces cut at `cuts` (offsets), like a server read loop.
    static func feed(_ bytes: [UInt8], cuts: [Int], limits: HTTPParserLimits = HTTPParserLimits()) -> FeedOutcome {
        var parser = HTTPRequestParser(limits: limits)
        var buffer: [UInt8] = []
        var outcome = FeedOutcome()
        var start = 0
        for end in cuts + [bytes.count] where end >= start {
            buffer.append(contentsOf: bytes[start..<end])
            start = end
            parsing: while true {
                switch parser.parse(buffer) {
                case .complete(let request, let consumed):
                    outcome.requests.append(ParsedRequest(request))
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

    /// The outcomes of feeding `bytes` whole, split in two at every offset, and one byte at a time.
    static func allFeedings(_ bytes: [UInt8], limits: HTTPParserLimits = HTTPParserLimits()) -> [(String, FeedOutcome)] {
        var outcomes = [("whole", feed(bytes, cuts: [], limits: limits))]
        for offset in 1..<max(bytes.count, 1) {
            outcomes.append(("split at \(offset)", feed(bytes, cuts: [offset], limits: limits)))
        }
        outcomes.append(("byte by byte", feed(bytes, cuts: Array(0..<bytes.count), limits: limits)))
        return outcomes
    }
}
