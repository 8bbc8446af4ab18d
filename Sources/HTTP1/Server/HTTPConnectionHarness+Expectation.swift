extension HTTPConnectionHarness {
    /// What a correct connection answers to a byte stream, however it is split: worked out by one
    /// plain parser run over the whole stream, with `EchoHandler`'s answers.
    public struct Expectation: Sendable, Equatable {
        /// The answers, in order.
        public var answers: [Answer] = []
        /// The methods of the requests answered (a parse error counts as `GET`).
        public var methods: [HTTPMethod] = []
        /// Whether the server closes after the last answer (`Connection: close`, HTTP/1.0, or an error).
        public var closes = false

        /// The expectation for `bytes` read with `limits`.
        public init(for bytes: [UInt8], limits: HTTPParserLimits) {
            var parser = HTTPRequestParser(limits: limits)
            var offset = 0
            while offset < bytes.count, !closes {
                let result = bytes.withUnsafeBytes { parser.parse(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
                switch result {
                case .complete(let request, let consumed):
                    offset += consumed
                    answers.append(Answer(status: 200, body: request.method == .head ? "" : EchoHandler.body(for: request)))
                    methods.append(request.method)
                    closes = !request.headers.connectionKeepsAlive(version: request.version)
                case .incomplete:
                    return
                case .invalid(let error):
                    guard case .bytes(let body) = HTTPErrorResponse.make(for: error).body else { return }
                    answers.append(Answer(status: error.status, body: String(decoding: body, as: UTF8.self)))
                    methods.append(.get)
                    closes = true
                }
            }
        }
    }
}
