import Testing

@_spi(Testing) @testable import HTTP1

/// Every request of the parser tables through a real `HTTPConnection`, pipelined in mixes and cut
/// into reads: at every offset into two reads, and at sampled offsets into three, for every way a
/// conversation ends (keep-alive, `Connection: close`, HTTP/1.0, parse error, limit exceeded, an
/// answer on the loop or from a task, the client leaving). The answers must be the ones one plain
/// parser run predicts, in order; the server must close exactly when it should, close every
/// connection whose client left, and answer a new connection afterwards.
@Suite(.timeLimit(.minutes(2)))
struct HTTPConnectionSplitTests {
    /// How a row's conversation goes on after its own bytes.
    enum Tail: CaseIterable {
        case keepAlive, close, http10

        var bytes: String {
            switch self {
            case .keepAlive: "GET /after HTTP/1.1\r\nHost: x\r\n\r\n"
            case .close: "GET /close HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            case .http10: "GET /ten HTTP/1.0\r\n\r\n"
            }
        }
    }

    /// Rows over the small limits of `HTTPConnectionHarness.smallLimits`.
    static let limitRows: [RequestCase] = [
        .invalid("request line too long", "GET /" + String(repeating: "a", count: 300) + " HTTP/1.1\r\n\r\n", "414"),
        .invalid(
            "too many fields", "GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "A: b\r\n", count: 20) + "\r\n",
            "431"),
        .invalid(
            "chunked body passing the body limit",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + String(repeating: "3e8\r\n" + String(repeating: "b", count: 1_000) + "\r\n", count: 3) + "0\r\n\r\n",
            "413"),
    ]

    static let rows = HTTPRequestParserTests.validCases + HTTPRequestParserTests.invalidCases + limitRows

    /// A row followed by its tail, and the row index's choice of answer path.
    static func stream(_ index: Int) -> [UInt8] {
        Array((rows[index].raw + Tail.allCases[index % Tail.allCases.count].bytes).utf8)
    }

    /// Every row, cut into two reads at every offset (every `length / 200`th for rows of
    /// 400 bytes or more), answers mixed on the loop and from tasks (four groups of rows side by side).
    @Test(arguments: 0..<4)
    func everyRow_AtEveryTwoReadSplit_IsAnsweredAsPredicted(group: Int) async throws {
        try await Self.withHarness(answering: .mixed) { harness in
            for index in Self.rows.indices where index % 4 == group {
                let bytes = Self.stream(index)
                for cut in stride(from: 1, to: bytes.count, by: max(1, bytes.count / 200)) {
                    let parts = HTTPConnectionHarness.parts(of: bytes, cutAt: [cut])
                    try await Self.check(harness, parts, Self.rows[index].name)
                }
            }
        }
    }

    /// Pipelined mixes of two rows, cut into three reads at sampled offsets, for each answer path.
    @Test(arguments: HTTPConnectionHarness.EchoHandler.Answering.allCases)
    func pipelinedMixes_AtSampledThreeReadSplits_AreAnsweredAsPredicted(
        _ answering: HTTPConnectionHarness.EchoHandler.Answering
    ) async throws {
        try await Self.withHarness(answering: answering) { harness in
            for index in Self.rows.indices {
                let other = Self.rows[(index * 7 + 3) % Self.rows.count].raw
                let bytes = Array((other + Self.rows[index].raw + Tail.allCases[index % 3].bytes).utf8)
                // Spread deterministically over the stream: first cut in the first half, second anywhere after.
                for sample in 1...6 {
                    let first = (sample * 37 + index * 11) % (bytes.count / 2) + 1
                    let cuts = [first, first + (sample * 53 + index * 5) % (bytes.count - first)]
                    try await Self.check(harness, HTTPConnectionHarness.parts(of: bytes, cutAt: cuts), Self.rows[index].name)
                }
            }
        }
    }

    /// The client sends part of a conversation and leaves without reading: the connection closes
    /// (its handler task cancelled) and the server answers the next client.
    @Test(arguments: HTTPConnectionHarness.EchoHandler.Answering.allCases)
    func clientLeaving_AtSampledSplits_ClosesTheConnection(
        _ answering: HTTPConnectionHarness.EchoHandler.Answering
    ) async throws {
        try await Self.withHarness(answering: answering) { harness in
            for index in Self.rows.indices {
                let bytes = Self.stream(index)
                for cut in stride(from: 1, to: bytes.count, by: max(1, bytes.count / 4)) {
                    let parts = HTTPConnectionHarness.parts(of: bytes, cutAt: [cut])
                    _ = try await harness.offload {
                        try harness.run(parts, ending: .leave, methods: [], expectsClose: false)
                    }
                }
                let closed = try await harness.offload { harness.waitUntilAllClosed() }
                #expect(closed, "\(Self.rows[index].name)")
            }
        }
    }

    /// Runs `body` with a harness answering as `answering`, then requires a new connection to be
    /// answered (the loop and the process survived all of it).
    private static func withHarness(
        answering: HTTPConnectionHarness.EchoHandler.Answering, _ body: (HTTPConnectionHarness) async throws -> Void
    ) async throws {
        let harness = try HTTPConnectionHarness.make(answering: answering)
        try await body(harness)
        let answered = try await harness.answersNewConnection()
        #expect(answered)
    }

    private static func check(_ harness: HTTPConnectionHarness, _ parts: [[UInt8]], _ name: String) async throws {
        let (outcome, expected) = try await harness.exchange(parts)
        let cuts = parts.dropLast().map(\.count)
        #expect(outcome.answers == expected.answers, "\(name), reads of \(cuts) bytes")
        if expected.closes {
            #expect(outcome.serverClosed && outcome.trailingBytes == 0, "\(name), reads of \(cuts) bytes: \(outcome)")
        }
    }
}
