import Foundation
import Gateway
import HTTP1
import Testing

/// What only ``HTTP1Transport`` does: keep-alive reuse and the client's finer error kinds.
@Suite(.timeLimit(.minutes(1)))
struct TransportHTTP1Tests {
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
            let response = try await transport.send(
                request, to: TransportContractTests.endpoint(upstream), timeouts: .init())
            #expect(response.status == 200)
            #expect(try TransportContractTests.body(response) == "/n/\(index):b\(index)")
        }
        #expect(upstream.connections == 1)
        #expect(upstream.requests.first?.lowercased().contains("host: 127.0.0.1:\(upstream.port)") == true)
    }

    @Test func send_NamesFirstBytePhase_WhenUpstreamStaysSilent() async throws {
        let upstream = try RawSocketUpstream { _, _ in nil }
        defer { upstream.stop() }
        let error = await #expect(throws: TransportError.self) {
            try await HTTP1Transport().send(
                HTTPRequest(method: .get, target: "/slow"), to: TransportContractTests.endpoint(upstream),
                timeouts: UpstreamTimeouts(connect: 1, firstByte: 0.2, total: 5))
        }
        #expect(error?.details["phase"] == "first_byte")
        #expect(error?.details["client_error"] == "timeout")
    }

    static let answers: [(String, TransportError.Kind)] = [
        ("HTTP/1.1 abc OK\r\n\r\n", .malformedResponse), ("NOT HTTP AT ALL\r\n\r\n", .malformedResponse),
        ("HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", .malformedResponse),
        ("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort", .failed),
        ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", .malformedResponse),
    ]

    @Test(arguments: answers)
    func send_MapsBrokenAnswer_ToTransportErrorKind(_ answer: String, _ kind: TransportError.Kind) async throws {
        let upstream = try RawSocketUpstream(response: answer, closeAfterReply: true)
        defer { upstream.stop() }
        let error = await #expect(throws: TransportError.self) {
            try await HTTP1Transport().send(
                HTTPRequest(method: .get, target: "/"), to: TransportContractTests.endpoint(upstream),
                timeouts: .init())
        }
        #expect(error?.kind == kind)
    }
}
