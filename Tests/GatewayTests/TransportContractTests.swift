import Foundation
import Gateway
import HTTP1
import RDSTesting
import Testing

/// What every ``Transport`` promises, checked for both of ours over real sockets on port 0.
@Suite(.timeLimit(.minutes(1)))
struct TransportContractTests {
    static let transports: [@Sendable () -> any Transport] = [{ HTTP1Transport() }, { URLSessionTransport() }]

    static func endpoint(_ upstream: RawSocketUpstream) -> UpstreamEndpoint {
        UpstreamEndpoint(scheme: "http", host: "127.0.0.1", port: upstream.port)
    }

    static func body(_ response: HTTPResponse) throws -> String {
        guard case .bytes(let bytes) = response.body else { throw HTTPBodyIsStream() }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: transports)
    func send_ReturnsStatusHeadersAndBody(_ makeTransport: @Sendable () -> any Transport) async throws {
        let upstream = try RawSocketUpstream(
            response: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nETag: \"x\"\r\nContent-Length: 5\r\n\r\nhello")
        defer { upstream.stop() }
        let request = HTTPRequest(
            method: .post, target: "/echo?a=1", headers: ["X-Test": "yes", "Content-Type": "text/plain"],
            body: Array("ping".utf8))
        let response = try await makeTransport().send(request, to: Self.endpoint(upstream), timeouts: .init())
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/plain")
        #expect(response.headers["etag"] == "\"x\"")
        #expect(try Self.body(response) == "hello")
        let head = try #require(upstream.requests.first)
        #expect(head.hasPrefix("POST /echo?a=1 HTTP/1.1"))
        #expect(head.lowercased().contains("x-test: yes"))
        #expect(head.lowercased().contains("content-length: 4"))
    }

    @Test(arguments: transports)
    func send_DoesNotFollowRedirect(_ makeTransport: @Sendable () -> any Transport) async throws {
        let upstream = try RawSocketUpstream(
            response: "HTTP/1.1 301 Moved Permanently\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n")
        defer { upstream.stop() }
        let response = try await makeTransport().send(
            HTTPRequest(method: .get, target: "/old"), to: Self.endpoint(upstream), timeouts: .init())
        #expect(response.status == 301)
        #expect(response.headers["location"] == "/elsewhere")
        #expect(upstream.requests.count == 1)
    }

    @Test(arguments: transports)
    func send_NeverAnswersFromACache(_ makeTransport: @Sendable () -> any Transport) async throws {
        let upstream = try RawSocketUpstream(
            response: "HTTP/1.1 200 OK\r\nCache-Control: max-age=600\r\nContent-Length: 2\r\n\r\nok")
        defer { upstream.stop() }
        let transport = makeTransport()
        for _ in 0..<3 {
            _ = try await transport.send(
                HTTPRequest(method: .get, target: "/cached"), to: Self.endpoint(upstream), timeouts: .init())
        }
        #expect(upstream.requests.count == 3)
    }

    @Test(arguments: transports)
    func send_ThrowsRefused_WhenNothingListens(_ makeTransport: @Sendable () -> any Transport) async throws {
        let closed = try RefusingPort()
        defer { withExtendedLifetime(closed) {} }
        let endpoint = UpstreamEndpoint(scheme: "http", host: "127.0.0.1", port: closed.port)
        let error = await #expect(throws: TransportError.self) {
            try await makeTransport().send(HTTPRequest(method: .get, target: "/"), to: endpoint, timeouts: .init())
        }
        #expect(error?.kind == .refused)
    }

    @Test(arguments: transports)
    func send_ThrowsTimeout_WithoutTarget_WhenUpstreamStaysSilent(_ makeTransport: @Sendable () -> any Transport)
        async throws
    {
        let upstream = try RawSocketUpstream { _, _ in nil }
        defer { upstream.stop() }
        let error = await #expect(throws: TransportError.self) {
            try await makeTransport().send(
                HTTPRequest(method: .get, target: "/slow?key=s3cret"), to: Self.endpoint(upstream),
                timeouts: UpstreamTimeouts(connect: 1, firstByte: 0.2, total: 0.4))
        }
        #expect(error?.kind == .timeout)
        #expect(error.map { !"\($0)".contains("s3cret") } == true)
    }

    @Test(arguments: transports)
    func send_ThrowsCancellation_WhenCallerGoesAway(_ makeTransport: @Sendable () -> any Transport) async throws {
        let upstream = try RawSocketUpstream { _, _ in nil }
        defer { upstream.stop() }
        let endpoint = Self.endpoint(upstream)
        let transport = makeTransport()
        let task = Task {
            try await transport.send(HTTPRequest(method: .get, target: "/hang"), to: endpoint, timeouts: .init())
        }
        try #require(await eventually { !upstream.requests.isEmpty })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test(arguments: transports)
    func send_ReachesHTTPServer(_ makeTransport: @Sendable () -> any Transport) async throws {
        let server = HTTPServer(
            configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0),
            handler: ClosureHTTPHandler { request in
                HTTPResponse(
                    status: 200, headers: ["Content-Type": "text/plain", "ETag": "\"e\""],
                    bytes: Array("\(request.method) \(request.target)".utf8))
            })
        try await server.start()
        let endpoint = UpstreamEndpoint(scheme: "http", host: "127.0.0.1", port: server.port)
        let response = try await makeTransport().send(
            HTTPRequest(method: .get, target: "/a?b=c"), to: endpoint, timeouts: .init())
        await server.shutdown(gracePeriod: .seconds(1))
        #expect(response.status == 200)
        #expect(response.headers["ETag"] == "\"e\"")
        #expect(try Self.body(response) == "GET /a?b=c")
    }
}
