import Foundation
import Gateway
import HTTP1
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TransportHTTP1Tests {
    static func endpoint(_ upstream: RawSocketUpstream) -> UpstreamEndpoint {
        UpstreamEndpoint(scheme: "http", host: "127.0.0.1", port: upstream.port)
    }

    static func body(_ response: HTTPResponse) throws -> String {
        guard case .bytes(let bytes) = response.body else { throw HTTPBodyIsStream() }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func send_ReusesOneKeepAliveConnection_ForSequentialCalls() async throws {
        let upstream = try RawSocketUpstream { head, body in
            let target = head.split(separator: " ").dropFirst().first.map(String.init) ?? "?"
            let text = target + ":" + String(decoding: body, as: UTF8.self)
            return Array("HTTP/1.1 200 OK\r\nContent-Length: \(text.utf8.count)\r\n\r\n\(text)".utf8)
        }
        defer { upstream.stop() }
        let transport = HTTP1Transport()
        for index in 0..<3 {
            let request = HTTPRequest(method: .put, target: "/n/\(index)", body: Array("b\(index)".utf8))
            let response = try await transport.send(request, to: Self.endpoint(upstream), timeouts: .init())
            #expect(response.status == 200)
            #expect(try Self.body(response) == "/n/\(index):b\(index)")
        }
        #expect(upstream.connections == 1)
        #expect(upstream.requests.first?.lowercased().contains("host: 127.0.0.1:\(upstream.port)") == true)
    }

    @Test func send_ThrowsRefused_WhenNothingListens() async throws {
        let upstream = try RawSocketUpstream(response: "")
        let endpoint = Self.endpoint(upstream)
        upstream.stop()
        let error = await #expect(throws: TransportError.self) {
            try await HTTP1Transport().send(HTTPRequest(method: .get, target: "/"), to: endpoint, timeouts: .init())
        }
        #expect(error?.kind == .refused)
    }

    @Test func send_ThrowsFirstByteTimeout_WhenUpstreamStaysSilent() async throws {
        let upstream = try RawSocketUpstream { _, _ in nil }
        defer { upstream.stop() }
        let error = await #expect(throws: TransportError.self) {
            try await HTTP1Transport().send(
                HTTPRequest(method: .get, target: "/slow?key=s3cret"), to: Self.endpoint(upstream),
                timeouts: UpstreamTimeouts(connect: 1, firstByte: 0.2, total: 5))
        }
        #expect(error?.kind == .timeout)
        #expect(error?.details["phase"] == "first_byte")
        #expect(error.map { !"\($0)".contains("s3cret") } == true)
    }

    @Test(arguments: [
        "HTTP/1.1 abc OK\r\n\r\n", "NOT HTTP AT ALL\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
    ])
    func send_ThrowsMalformedResponse_ForInvalidAnswer(_ answer: String) async throws {
        let upstream = try RawSocketUpstream(response: answer, closeAfterReply: true)
        defer { upstream.stop() }
        let error = await #expect(throws: TransportError.self) {
            try await HTTP1Transport().send(
                HTTPRequest(method: .get, target: "/"), to: Self.endpoint(upstream), timeouts: .init())
        }
        #expect(error?.kind == .malformedResponse)
    }

    @Test func send_ThrowsFailed_WhenUpstreamClosesMidAnswer() async throws {
        let upstream = try RawSocketUpstream(
            response: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort", closeAfterReply: true)
        defer { upstream.stop() }
        let error = await #expect(throws: TransportError.self) {
            try await HTTP1Transport().send(
                HTTPRequest(method: .get, target: "/"), to: Self.endpoint(upstream), timeouts: .init())
        }
        #expect(error?.kind == .failed)
    }

    @Test func send_ThrowsCancellation_WhenCallerGoesAway() async throws {
        let upstream = try RawSocketUpstream { _, _ in nil }
        defer { upstream.stop() }
        let endpoint = Self.endpoint(upstream)
        let task = Task {
            try await HTTP1Transport().send(HTTPRequest(method: .get, target: "/hang"), to: endpoint, timeouts: .init())
        }
        while upstream.requests.isEmpty { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func send_ReachesHTTPServer_OverBothTransports() async throws {
        let server = HTTPServer(
            configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0),
            handler: ClosureHTTPHandler { request in
                HTTPResponse(
                    status: 200, headers: ["Content-Type": "text/plain", "ETag": "\"e\""],
                    bytes: Array("\(request.method) \(request.target)".utf8))
            })
        try await server.start()
        let endpoint = UpstreamEndpoint(scheme: "http", host: "127.0.0.1", port: server.port)
        for transport in [HTTP1Transport(), URLSessionTransport()] as [any Transport] {
            let response = try await transport.send(
                HTTPRequest(method: .get, target: "/a?b=c"), to: endpoint, timeouts: .init())
            #expect(response.status == 200)
            #expect(response.headers["ETag"] == "\"e\"")
            #expect(try Self.body(response) == "GET /a?b=c")
        }
        await server.shutdown(gracePeriod: .seconds(1))
    }
}
