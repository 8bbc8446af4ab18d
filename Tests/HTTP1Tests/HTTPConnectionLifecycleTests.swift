import Testing

@testable import HTTP1

/// Streams, cancellation and timeouts of one connection over a socket pair.
@Suite(.timeLimit(.minutes(1)))
struct HTTPConnectionLifecycleTests {
    static let shortTimeouts = HTTPServer.Configuration(
        timeouts: .init(
            headerRead: .milliseconds(200), bodyRead: .milliseconds(200), idleKeepAlive: .milliseconds(200),
            write: .milliseconds(200)))

    static let ok = ClosureHTTPHandler { _ in
        HTTPResponse(status: 200, bytes: Array("ok".utf8))
    } handle: { _ in
        HTTPResponse(status: 500)
    }

    @Test func streamResponse_FlushesEachElementAsItArrives_ThenEndsAndKeepsAlive() async throws {
        let (stream, producer) = AsyncStream.makeStream(of: [UInt8].self)
        let handler = ClosureHTTPHandler { request in
            request.target == "/events"
                ? HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: .stream(stream))
                : HTTPResponse(status: 204)
        } handle: { _ in
            HTTPResponse(status: 500)
        }
        let client = try HTTPConnection.startOverSocketPair(handler: handler)
        defer { client.close() }
        try await client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        producer.yield(Array("data: one\n\n".utf8))
        let first = String(
            decoding: await client.read(until: { String(decoding: $0, as: UTF8.self).contains("data: one") }),
            as: UTF8.self)
        #expect(first.contains("Transfer-Encoding: chunked"))
        producer.yield(Array("data: two\n\n".utf8))
        let second = String(
            decoding: await client.read(until: { String(decoding: $0, as: UTF8.self).contains("data: two") }),
            as: UTF8.self)
        #expect(second == "b\r\ndata: two\n\n\r\n")
        producer.finish()
        let end = String(decoding: await client.read(until: { $0.count >= 5 }), as: UTF8.self)
        #expect(end == "0\r\n\r\n")
        try await client.send("GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(RawHTTPResponses.parse(await client.readResponses(1)).map(\.status) == [204])
    }

    @Test func streamResponse_IsCancelled_WhenClientGoesAway() async throws {
        let (terminations, terminated) = AsyncStream.makeStream(of: Void.self)
        let handler = ClosureHTTPHandler { _ in
            let (stream, producer) = AsyncStream.makeStream(of: [UInt8].self)
            producer.onTermination = { _ in terminated.yield() }
            producer.yield(Array("data: hello\n\n".utf8))
            return HTTPResponse(status: 200, body: .stream(stream))
        }
        let client = try HTTPConnection.startOverSocketPair(handler: handler)
        try await client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = await client.read(until: { String(decoding: $0, as: UTF8.self).contains("data: hello") })
        client.close()
        var iterator = terminations.makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }

    @Test func handlerTask_IsCancelled_WhenClientGoesAwayBeforeAnswer() async throws {
        let (events, recorder) = AsyncStream.makeStream(of: String.self)
        let handler = ClosureHTTPHandler { _ in
            recorder.yield("started")
            do {
                try await Task.sleep(for: .seconds(60))
                recorder.yield("finished")
            } catch {
                recorder.yield("cancelled")
            }
            return HTTPResponse(status: 200)
        }
        let client = try HTTPConnection.startOverSocketPair(handler: handler)
        try await client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "started")
        client.close()
        #expect(await iterator.next() == "cancelled")
    }

    @Test func slowHead_IsAnswered408AndClosed_AfterHeaderTimeout() async throws {
        let client = try HTTPConnection.startOverSocketPair(
            handler: Self.ok, configuration: Self.shortTimeouts, firstBytes: "GET / HTTP/1.1\r\nHost")
        defer { client.close() }
        let responses = RawHTTPResponses.parse(await client.readToEnd())
        #expect(responses.map(\.status) == [408])
        #expect(responses.first?.body.contains("request_timeout") == true)
    }

    @Test func silentConnection_IsClosedWithoutAnswer_AfterHeaderTimeout() async throws {
        let client = try HTTPConnection.startOverSocketPair(handler: Self.ok, configuration: Self.shortTimeouts)
        defer { client.close() }
        #expect(await client.readToEnd() == "")
    }

    @Test func stalledBody_IsDroppedWithoutAnswer() async throws {
        let client = try HTTPConnection.startOverSocketPair(
            handler: Self.ok, configuration: Self.shortTimeouts,
            firstBytes: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab")
        defer { client.close() }
        #expect(await client.readToEnd() == "")
    }

    @Test func idleKeepAliveConnection_IsClosed_AfterIdleTimeout() async throws {
        let client = try HTTPConnection.startOverSocketPair(
            handler: Self.ok, configuration: Self.shortTimeouts, firstBytes: "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        defer { client.close() }
        #expect(RawHTTPResponses.parse(await client.readResponses(1)).map(\.status) == [200])
        #expect(await client.isClosedByServer())
    }

    @Test func clientNotReading_IsDropped_AfterWriteTimeout_AndStreamCancelled() async throws {
        let (terminations, terminated) = AsyncStream.makeStream(of: Void.self)
        let handler = ClosureHTTPHandler { _ in
            let (stream, producer) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(4))
            producer.onTermination = { _ in terminated.yield() }
            let block = [UInt8](repeating: 0x61, count: 64 * 1_024)
            Task {
                while case .enqueued = producer.yield(block) { try? await Task.sleep(for: .milliseconds(1)) }
            }
            return HTTPResponse(status: 200, body: .stream(stream))
        }
        let client = try HTTPConnection.startOverSocketPair(
            handler: handler, configuration: Self.shortTimeouts,
            firstBytes: "GET /firehose HTTP/1.1\r\nHost: x\r\n\r\n")
        defer { client.close() }
        var iterator = terminations.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        #expect(await client.read().count > 0)
    }

    @Test func pipelinedFlood_IsAnsweredInOrder_WhenBufferLimitPausesReading() async throws {
        var configuration = HTTPServer.Configuration()
        configuration.limits.maxBufferedBytes = 256
        let handler = ClosureHTTPHandler { request in
            try? await Task.sleep(for: .milliseconds(1))
            return HTTPResponse(status: 200, bytes: Array(request.target.utf8))
        }
        let client = try HTTPConnection.startOverSocketPair(handler: handler, configuration: configuration)
        defer { client.close() }
        let targets = (0..<200).map { "/item/\($0)" }
        try await client.send(targets.map { "GET \($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        #expect(RawHTTPResponses.parse(await client.readResponses(targets.count)).map(\.body) == targets)
    }
}
