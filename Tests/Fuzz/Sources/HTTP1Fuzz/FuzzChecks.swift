import HTTP1

/// The invariants checked on every input.
///
/// - consumed is positive and never more than the buffer;
/// - the outcome is the same whether the bytes come whole, cut at a point chosen by the input,
///   cut in three, or one byte at a time (short inputs);
/// - every request parsed, serialized again by `HTTPSerializer`, parses back to the same
///   method, target, fields and body; every chunk framing of its body decodes back to the body.
enum FuzzChecks {
    /// Small limits, so the fuzzer reaches every limit within its input length.
    static let limits = HTTPParserLimits(
        maxRequestLineBytes: 200, maxHeaderSectionBytes: 1000, maxHeaderCount: 12, maxBodyBytes: 2000)

    static func requests(_ bytes: [UInt8]) {
        let outcomes = cuts(for: bytes).map { cuts in
            var parser = HTTPRequestParser(limits: limits)
            return FuzzFeed.feed(bytes, cuts: cuts, summary: FuzzMessage.init) { buffer, _ in parser.parse(buffer) }
        }
        requireSame(outcomes, "request")
        for message in outcomes[0].messages { roundTrip(message) }
    }

    static func responses(_ bytes: [UInt8]) {
        let method: HTTPMethod = bytes.first.map { $0 & 1 == 0 } == true ? .get : .head
        let outcomes = cuts(for: bytes).map { cuts in
            var parser = HTTPResponseParser(requestMethod: method, limits: limits)
            return FuzzFeed.feed(bytes, cuts: cuts, summary: FuzzMessage.init) { buffer, end in
                parser.parse(buffer, endOfStream: end)
            }
        }
        requireSame(outcomes, "response")
    }

    /// Whole, cut at an input-chosen point, cut in three, and byte by byte when short.
    private static func cuts(for bytes: [UInt8]) -> [[Int]] {
        guard bytes.count > 1 else { return [[]] }
        let seed = bytes.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        let first = Int(seed % UInt64(bytes.count - 1)) + 1
        let second = Int((seed >> 32) % UInt64(bytes.count - 1)) + 1
        var all = [[], [first], [min(first, second), max(first, second)]]
        if bytes.count <= 600 { all.append(Array(1..<bytes.count)) }
        return all
    }

    private static func requireSame(_ outcomes: [FuzzFeed.Outcome], _ kind: String) {
        for outcome in outcomes.dropFirst() where outcome != outcomes[0] {
            fatalError("\(kind) outcome depends on how the bytes are split: \(outcomes[0]) vs \(outcome)")
        }
    }

    /// Serializes a parsed request again and requires the same request back.
    private static func roundTrip(_ message: FuzzMessage) {
        guard case .request(let request) = message.kind else { return }
        let bytes = HTTPSerializer.request(request, host: "h", port: 80)
        var parser = HTTPRequestParser(limits: HTTPParserLimits(maxBodyBytes: 1 << 20))
        guard case .complete(let again, let consumed) = parser.parse(bytes), consumed == bytes.count else {
            fatalError("serialized request does not parse back: \(message)")
        }
        let expectedFields = request.headers.filter { !isFraming($0.name) }.map { "\($0.name): \($0.value)" }
        let actualFields = again.headers.filter { !isFraming($0.name) }.map { "\($0.name): \($0.value)" }
        guard again.method == request.method, again.target == request.target, again.body == request.body,
            actualFields == expectedFields
        else { fatalError("round trip changed the request: \(message) → \(FuzzMessage(again))") }
        var chunked: [UInt8] = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        var rest = request.body[...]
        while !rest.isEmpty {
            chunked += HTTPSerializer.chunk(Array(rest.prefix(7)))
            rest = rest.dropFirst(7)
        }
        chunked += HTTPSerializer.lastChunk
        var responseParser = HTTPResponseParser(limits: HTTPParserLimits(maxBodyBytes: 1 << 20))
        guard case .complete(let response, _) = responseParser.parse(chunked), case .bytes(let body) = response.body,
            body == request.body
        else { fatalError("chunk framing does not decode back: \(message)") }
    }

    private static func isFraming(_ name: String) -> Bool {
        ["content-length", "transfer-encoding", "host"].contains(name.lowercased())
    }
}
