import Testing

@testable import HTTP1

/// A streamed body that falls behind is closed after `limits.maxStreamLag`, however long the
/// write timeout.
@Suite(.timeLimit(.minutes(1)))
struct HTTPConnectionStreamLagTests {
    @Test func streamBehindLongerThanMaxLag_IsClosed_BeforeTheWriteTimeout() async throws {
        let (terminations, terminated) = AsyncStream.makeStream(of: Void.self)
        let handler = ClosureHTTPHandler { _ in
            let (stream, producer) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(1))
            producer.onTermination = { _ in terminated.yield() }
            let block = [UInt8](repeating: 0x61, count: 256 * 1_024)
            Task {
                while case .enqueued = producer.yield(block) { try? await Task.sleep(for: .milliseconds(5)) }
            }
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
