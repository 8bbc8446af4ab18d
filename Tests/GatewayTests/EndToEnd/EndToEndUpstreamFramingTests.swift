import Foundation
import Gateway
import HTTP1
import Testing

/// An upstream whose answer is followed by an extra response on its kept-alive connection: the
/// answer is refused as malformed and never stored, and the extra bytes never become another
/// key's answer.
@Suite(.timeLimit(.minutes(1)))
struct EndToEndUpstreamFramingTests {
    static func answer(_ body: String) -> String {
        "HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    @Test func extraResponseAfterAnAnswer_IsRefused_AndNeverCachedUnderAnotherKey() async throws {
        let upstream = try RawSocketUpstream { head, _ in
            let target = head.split(separator: " ").dropFirst().first.map(String.init) ?? ""
            let reply = target.hasSuffix("/a") ? Self.answer("ok") + Self.answer("evil") : Self.answer("good")
            return Array(reply.utf8)
        }
        defer { upstream.stop() }
        let gateway = try await EndToEndGateway.start(upstream: "http://127.0.0.1:\(upstream.port)")
        let refused = try await gateway.get("/items/a")
        #expect(refused.status == 502)
        #expect(refused.json["code"] as? String == "upstream_bad_response")
        let other = try await gateway.get("/items/b")
        #expect(other.text == "good")
        let otherAgain = try await gateway.get("/items/b")
        #expect(otherAgain.text == "good")
        #expect(otherAgain.headers["X-Cache"] == "HIT")
        let refusedAgain = try await gateway.get("/items/a")
        #expect(refusedAgain.status == 502)
        #expect(upstream.requests.count == 3)
        await gateway.stop()
    }
}
