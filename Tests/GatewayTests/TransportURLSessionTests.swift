import Foundation
import Gateway
import HTTP1
import Testing

/// What only ``URLSessionTransport`` needs: undoing URLSession's own decoding and defaults.
@Suite(.timeLimit(.minutes(1)))
struct TransportURLSessionTests {
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
            HTTPRequest(method: .get, target: "/gz"), to: TransportContractTests.endpoint(upstream), timeouts: .init())
        #expect(!response.headers.contains("Content-Encoding"))
        #expect(try TransportContractTests.body(response) == "hello")
    }

    @Test func send_SendsNoLanguagePreference_UnlessRequestHasOne() async throws {
        let upstream = try RawSocketUpstream(response: "HTTP/1.1 204 No Content\r\n\r\n")
        defer { upstream.stop() }
        let transport = URLSessionTransport()
        let endpoint = TransportContractTests.endpoint(upstream)
        _ = try await transport.send(HTTPRequest(method: .get, target: "/a"), to: endpoint, timeouts: .init())
        _ = try await transport.send(
            HTTPRequest(method: .get, target: "/b", headers: ["Accept-Language": "fr"]), to: endpoint,
            timeouts: .init())
        let heads = upstream.requests.map { $0.lowercased() }
        #expect(heads.count == 2)
        #expect(heads.first?.contains("accept-language: *") == true)
        #expect(heads.first?.contains("user-agent: rds-gateway") == true)
        #expect(heads.last?.contains("accept-language: fr") == true)
        #expect(heads.last?.contains("accept-language: *") == false)
    }
}
