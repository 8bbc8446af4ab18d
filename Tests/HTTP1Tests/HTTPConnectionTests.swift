import Synchronization
import Testing

@testable import HTTP1

/// One connection over a socket pair: framing, ordering, keep-alive, errors. No port, no listener.
struct HTTPConnectionTests {
    /// Answers `/fast…` on the event loop and everything else in a task after a short pause, with
    /// the target and body echoed, so the two paths can race.
    static let echo = ClosureHTTPHandler { request in
        request.target.hasPrefix("/fast") ? echoResponse(request) : nil
    } handle: { request in
        try? await Task.sleep(for: .milliseconds(5))
        return echoResponse(request)
    }

    static func echoResponse(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(
            status: 200, bytes: Array("\(request.method) \(request.target) \(request.body.count):".utf8) + request.body)
    }

    @Test func pipelinedRequests_AreAnsweredInOrder_WhenFastAndSlowPathsMix() async throws {
        let client = try HTTPConnection.startOverSocketPair(handler: Self.echo)
        defer { client.close() }
        let targets = ["/slow1", "/fast1", "/slow2", "/fast2", "/fast3", "/slow3"]
        try await client.send(targets.map { "GET \($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        let responses = RawHTTPResponses.parse(await client.readResponses(targets.count))
        #expect(responses.map(\.body) == targets.map { "GET \($0) 0:" })
    }

    @Test func request_IsAnswered_WhenSplitIntoSingleBytes() async throws {
        // Sixty sends, each a wake-up of this task: a loaded machine can take seconds over them,
        // so the head's time limit is a minute here (the limit itself has its own tests).
        var configuration = HTTPServer.Configuration()
        configuration.timeouts.headerRead = .seconds(60)
        let client = try HTTPConnection.startOverSocketPair(handler: Self.echo, configuration: configuration)
        defer { client.close() }
        for byte in Array("POST /fast HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello".utf8) {
            try await client.send([byte])
        }
        let responses = RawHTTPResponses.parse(await client.readResponses(1))
        #expect(responses.map(\.body) == ["POST /fast 5:hello"])
    }

    @Test func respondImmediately_AnswersWithoutTask_WhenItHasAnAnswer() async throws {
        let asyncCalls = Mutex(0)
        let handler = ClosureHTTPHandler { _ in
            HTTPResponse(status: 204)
        } handle: { _ in
            asyncCalls.withLock { $0 += 1 }
            return HTTPResponse(status: 500)
        }
        let client = try HTTPConnection.startOverSocketPair(handler: handler)
        defer { client.close() }
        try await client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(RawHTTPResponses.parse(await client.readResponses(2)).map(\.status) == [204, 204])
        #expect(asyncCalls.withLock { $0 } == 0)
    }

    @Test func response_CarriesDateServerAndContentLength() async throws {
        let client = try HTTPConnection.startOverSocketPair(handler: Self.echo)
        defer { client.close() }
        try await client.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try #require(RawHTTPResponses.parse(await client.readResponses(1)).first)
        #expect(response.header("Server") == "rds-gateway")
        #expect(response.header("Date")?.hasSuffix(" GMT") == true)
        #expect(response.header("Content-Length") == "12")
        #expect(response.header("Connection") == "keep-alive")
    }

    @Test func connectionClose_ClosesAfterResponse() async throws {
        let client = try HTTPConnection.startOverSocketPair(handler: Self.echo)
        defer { client.close() }
        try await client.send("GET /fast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let responses = RawHTTPResponses.parse(await client.readToEnd())
        #expect(responses.map(\.status) == [200])
        #expect(responses.first?.header("Connection") == "close")
    }

    @Test func http10_ClosesAfterResponse_WithoutKeepAlive() async throws {
        let client = try HTTPConnection.startOverSocketPair(handler: Self.echo)
        defer { client.close() }
        try await client.send("GET /fast HTTP/1.0\r\n\r\n")
        let responses = RawHTTPResponses.parse(await client.readToEnd())
        #expect(responses.map { $0.header("Connection") } == ["close"])
    }

    @Test func http10_StaysOpen_WithConnectionKeepAlive() async throws {
        let client = try HTTPConnection.startOverSocketPair(handler: Self.echo)
        defer { client.close() }
        try await client.send("GET /fast1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let first = RawHTTPResponses.parse(await client.readResponses(1))
        #expect(first.map { $0.header("Connection") } == ["keep-alive"])
        try await client.send("GET /fast2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(RawHTTPResponses.parse(await client.readResponses(1)).map(\.body) == ["GET /fast2 0:"])
    }

    @Test func expectContinue_Sends100ContinueBeforeBodyIsRead() async throws {
        let client = try HTTPConnection.startOverSocketPair(handler: Self.echo)
        defer { client.close() }
        try await client.send("PUT /up HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        let interim = String(decoding: await client.read(until: { $0.count >= 25 }), as: UTF8.self)
        #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
        try await client.send("data")
        #expect(RawHTTPResponses.parse(await client.readResponses(1)).map(\.body) == ["PUT /up 4:data"])
    }

    @Test func chunkedRequestBody_IsDechunked_AndTrailersIgnored() async throws {
        let client = try HTTPConnection.startOverSocketPair(handler: Self.echo)
        defer { client.close() }
        try await client.send(
            "POST /fast HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n")
        #expect(RawHTTPResponses.parse(await client.readResponses(1)).map(\.body) == ["POST /fast 11:hello world"])
    }

    @Test func head_OmitsBody_ButKeepsContentLength() async throws {
        let client = try HTTPConnection.startOverSocketPair(handler: Self.echo)
        defer { client.close() }
        try await client.send("HEAD /fast HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        let text = await client.read(until: { String(decoding: $0, as: UTF8.self).contains("GET /fast 0:") })
        let head = try #require(RawHTTPResponses.parse(text, headRequests: true).first)
        #expect(head.header("Content-Length") == "13")
        let afterHead = String(decoding: text, as: UTF8.self).components(separatedBy: "\r\n\r\n")[1]
        #expect(afterHead.hasPrefix("HTTP/1.1 200"))
    }

    @Test(arguments: [
        ("GET /\(String(repeating: "a", count: 200)) HTTP/1.1\r\nHost: x\r\n\r\n", 414, "request_line_too_long"),
        (
            "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 300))\r\n\r\n", 431,
            "header_section_too_large"
        ),
        ("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-A: 1\r\n", count: 6) + "\r\n", 431, "too_many_headers"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n", 413, "body_too_large"),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "unsupported_transfer_coding"),
        ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505, "unsupported_version"),
        ("GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400, "whitespace_before_colon"),
        (
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400,
            "content_length_with_transfer_encoding"
        ),
    ])
    func badRequest_IsAnsweredWithStatusAndJSON_ThenClosed(request: String, status: Int, code: String) async throws {
        var configuration = HTTPServer.Configuration()
        configuration.limits.parser = HTTPParserLimits(
            maxRequestLineBytes: 100, maxHeaderSectionBytes: 200, maxHeaderCount: 5, maxBodyBytes: 100)
        let client = try HTTPConnection.startOverSocketPair(handler: Self.echo, configuration: configuration)
        defer { client.close() }
        try await client.send(request)
        let responses = RawHTTPResponses.parse(await client.readToEnd())
        let response = try #require(responses.first)
        #expect(responses.count == 1)
        #expect(response.status == status)
        #expect(response.header("Connection") == "close")
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.body.hasPrefix(#"{"error":{"code":"\#(code)","message":""#))
    }
}
