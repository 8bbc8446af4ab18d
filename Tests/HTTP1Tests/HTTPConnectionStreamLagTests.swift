import Testing

@testable import HTTP1

/// A streamed body that falls behind is closed after `limits.maxStreamLag`, however long the
/// write timeout.
@Suite(.timeLimit(.minutes(1)))
struct HTTPConnectionStreamLagTests {
    @Test func streamBehindLongerThanMaxLag_IsClosed_BeforeTheWriteTimeout() async throws {
        let (terminations, terminated) = AsyncStream.makeStream(of: Void.self)
        // One event far larger than the socket buffers: the client never takes it all.
        let handler = ClosureHTTPHandler { _ in
            var producer: AsyncStream<[UInt8]>.Continuation?
            let stream = AsyncStream<[UInt8]> { producer = $0 }
            producer?.onTermination = { _ in terminated.yield() }
            producer?.yield([UInt8](repeating: 0x61, count: 8 << 20))
            return HTTPResponse(status: 200, body: .stream(stream))
        }
        var configuration = HTTPServer.Configuration(timeouts: .init(write: .seconds(3_600)))
        configuration.limits.maxStreamLag = .milliseconds(100)
        let client = try HTTPConnection.startOverSocketPair(
            handler: handler, configuration: configuration, firstBytes: "GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        defer { client.close() }
        var iterator = terminations.makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }
}
