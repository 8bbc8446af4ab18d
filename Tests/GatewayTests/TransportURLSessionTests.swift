import Foundation
import Gateway
import HTTP1
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TransportURLSessionTests {
    static func endpoint(_ upstream: RawSocketUpstream) -> UpstreamEndpoint {
        UpstreamEndpoint(scheme: "http", host: "127.0.0.1", port: upstream.port)
    }

    @Test func send_ReturnsStatusHeadersAndBody_FromRealSocket() async throws {
        let upstream = try RawSocketUpstream(
            response: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nETag: \"x\"\r\nContent-Length: 5\r\n\r\nhello")
        defer { upstream.stop() }
        let request = HTTPRequest(
            method: .post, target: "/echo?a=1", headers: ["X-Test": "yes", "Content-Type": "text/plain"],
            body: Array("ping".utf8))
        let response = try await URLSessionTransport().send(request, to: Self.endpoint(upstream), timeouts: .init())
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/plain")
        #expect(response.headers["etag"] == "\"x\"")
        guard case .bytes(let body) = response.body else { throw HTTPBodyIsStream() }
        #expect(body == Array("hello".utf8))
        let head = try #require(upstream.requests.first)
        #expect(head.hasPrefix("POST /echo?a=1 HTTP/1.1"))
        #expect(head.lowercased().contains("x-test: yes"))
    }

    @Test func send_DoesNotFollowRedirect() async throws {
        let upstream = try RawSocketUpstream(
            response: "HTTP/1.1 301 Moved Permanently\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n")
        defer { upstream.stop() }
        let response = try await URLSessionTransport().send(
            HTTPRequest(method: .get, target: "/old"), to: Self.endpoint(upstream), timeouts: .init())
        #expect(response.status == 301)
        #expect(response.headers["location"] == "/elsewhere")
        #expect(upstream.requests.count == 1)
    }

    @Test func send_NeverAnswersFromItsOwnCache() async throws {
        let upstream = try RawSocketUpstream(
            response: "HTTP/1.1 200 OK\r\nCache-Control: max-age=600\r\nContent-Length: 2\r\n\r\nok")
        defer { upstream.stop() }
        let transport = URLSessionTransport()
        for _ in 0..<3 {
            _ = try await transport.send(
                HTTPRequest(method: .get, target: "/cached"), to: Self.endpoint(upstream), timeouts: .init())
        }
        #expect(upstream.requests.count == 3)
    }

    @Test func send_ThrowsRefused_WhenNothingListens() async throws {
        let upstream = try RawSocketUpstream(response: "")
        let endpoint = Self.endpoint(upstream)
        upstream.stop()
        let error = await #expect(throws: TransportError.self) {
            try await URLSessionTransport().send(
                HTTPRequest(method: .get, target: "/"), to: endpoint, timeouts: .init())
        }
        #expect(error?.kind == .refused)
    }

    @Test func send_ThrowsTimeout_WhenUpstreamStaysSilent() async throws {
        let upstream = try RawSocketUpstream { _, _ in nil }
        defer { upstream.stop() }
        let error = await #expect(throws: TransportError.self) {
            try await URLSessionTransport().send(
                HTTPRequest(method: .get, target: "/slow?key=s3cret"), to: Self.endpoint(upstream),
                timeouts: UpstreamTimeouts(connect: 1, firstByte: 0.3, total: 0.6))
        }
        #expect(error?.kind == .timeout)
        #expect(error.map { !"\($0)".contains("s3cret") } == true)
    }

    @Test func send_ThrowsCancellation_WhenCallerGoesAway() async throws {
        let upstream = try RawSocketUpstream { _, _ in nil }
        defer { upstream.stop() }
        let endpoint = Self.endpoint(upstream)
        let task = Task {
            try await URLSessionTransport().send(
                HTTPRequest(method: .get, target: "/hang"), to: endpoint, timeouts: .init())
        }
        while upstream.requests.isEmpty { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}

/// Thrown when a transport returns a streaming body where bytes were promised.
struct HTTPBodyIsStream: Error {}

extension TransportURLSessionTests {
    /// "hello", gzip-compressed.
    static let gzippedHello: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0x86,
        0xa6, 0x10, 0x36, 0x05, 0x00, 0x00, 0x00,
    ]

    @Test func send_DropsContentEncoding_WhenURLSessionDecodedTheBody() async throws {
        let upstream = try RawSocketUpstream { _, _ in
            Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 25\r\n\r\n".utf8) + Self.gzippedHello
        }
        defer { upstream.stop() }
        let response = try await URLSessionTransport().send(
            HTTPRequest(method: .get, target: "/gz"), to: Self.endpoint(upstream), timeouts: .init())
        #expect(!response.headers.contains("Content-Encoding"))
        guard case .bytes(let body) = response.body else { throw HTTPBodyIsStream() }
        #expect(body == Array("hello".utf8))
    }

    @Test func send_SendsNoLanguagePreference_UnlessRequestHasOne() async throws {
        let upstream = try RawSocketUpstream(response: "HTTP/1.1 204 No Content\r\n\r\n")
        defer { upstream.stop() }
        let transport = URLSessionTransport()
        _ = try await transport.send(
            HTTPRequest(method: .get, target: "/a"), to: Self.endpoint(upstream), timeouts: .init())
        _ = try await transport.send(
            HTTPRequest(method: .get, target: "/b", headers: ["Accept-Language": "fr"]), to: Self.endpoint(upstream),
            timeouts: .init())
        let heads = upstream.requests.map { $0.lowercased() }
        #expect(heads.count == 2)
        #expect(heads.first?.contains("accept-language: *") == true)
        #expect(heads.first?.contains("user-agent: rds-gateway") == true)
        #expect(heads.last?.contains("accept-language: fr") == true)
        #expect(heads.last?.contains("accept-language: *") == false)
    }
}
