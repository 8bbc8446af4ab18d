import Testing

@_spi(Testing) @testable import HTTP1

/// Requests whose bytes arrive in several reads and end the conversation on the loop (a close, an
/// error, a limit): each of these killed the process with a trap in `parseBufferedRequests()`.
/// Every test checks the answers, that the server closes, and that a new connection is answered.
@Suite(.timeLimit(.minutes(1)))
struct HTTPConnectionSplitReadTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Sends `parts`, expects `statuses`, a close, and a server that still answers.
    static func expect(
        _ parts: [[UInt8]], statuses: [Int], answering: HTTPConnectionHarness.EchoHandler.Answering = .immediately,
        limits: HTTPParserLimits = HTTPConnectionHarness.smallLimits
    ) async throws {
        let harness = try HTTPConnectionHarness.make(answering: answering, limits: limits)
        let (outcome, expected) = try await harness.exchange(parts, limits: limits)
        #expect(outcome.answers.map(\.status) == statuses)
        #expect(outcome.answers == expected.answers)
        #expect(outcome.serverClosed)
        #expect(outcome.trailingBytes == 0)
        let answered = try await harness.answersNewConnection()
        #expect(answered)
    }

    @Test func headSplitAcrossReads_EndingWithConnectionClose_IsAnswered() async throws {
        try await Self.expect(
            [Self.bytes("GET /health HTTP/1.1\r\nHost: x\r\n"), Self.bytes("Connection: close\r\n\r\n")],
            statuses: [200])
    }

    @Test func badHeaderInALaterRead_IsAnswered400() async throws {
        try await Self.expect(
            [Self.bytes("GET / HTTP/1.1\r\nHost: x\r\n"), Self.bytes("Bad Header: y\r\n\r\n")], statuses: [400])
    }

    @Test func badChunkSizeInALaterRead_IsAnswered400() async throws {
        try await Self.expect(
            [
                Self.bytes("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"),
                Self.bytes("5\r\nhello\r\n"), Self.bytes("zz\r\n"),
            ], statuses: [400])
    }

    @Test func chunkedBodyPassingMaxBodyBytes_IsAnswered413() async throws {
        let chunk = Self.bytes("100\r\n" + String(repeating: "a", count: 256) + "\r\n")
        let head = Self.bytes("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        try await Self.expect([head] + Array(repeating: chunk, count: 10), statuses: [413])
    }

    @Test func tenThousandHeaders_Sent50PerWrite_AreAnswered431() async throws {
        let fields = (0..<10_000).map { "X-\($0): v\r\n" }
        let parts = [Self.bytes("GET / HTTP/1.1\r\nHost: x\r\n")]
            + stride(from: 0, to: fields.count, by: 50).map { Self.bytes(fields[$0..<($0 + 50)].joined()) }
            + [Self.bytes("\r\n")]
        try await Self.expect(parts, statuses: [431], limits: HTTPParserLimits())
    }

    @Test func twoThousandPipelinedRequests_EndingInAClose_AreAnsweredInOrder() async throws {
        let requests = (0..<2_000).map { "GET /r\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
        let all = Self.bytes(requests + "GET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let middle = all.count / 2 + 7
        try await Self.expect(
            [Array(all[..<middle]), Array(all[middle...])], statuses: Array(repeating: 200, count: 2_001),
            limits: HTTPParserLimits())
    }

    @Test func asyncAnswer_FollowedInTheSameWriteByGarbage_IsAnsweredThen400() async throws {
        try await Self.expect(
            [Self.bytes("GET /uncached HTTP/1.1\r\nHost: x\r\n\r\n\u{1}garbage\r\n\r\n")], statuses: [200, 400],
            answering: .asynchronously)
    }
}
