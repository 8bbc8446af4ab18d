import Dispatch
import Testing

@testable import HTTP1

/// One upstream connection carrying several exchanges.
struct HTTPClientConnectionTests {
    /// A keep-alive exchange makes Linux delay its ACKs ("interactive" mode, re-entered whenever
    /// we send soon after receiving). An upstream writing head and body separately with Nagle on
    /// holds the body until the head is acknowledged, so a read that leaves the answer incomplete
    /// must acknowledge at once, on every reused exchange, or each such answer stalls 40 ms
    /// (`Tests/Performance/cold_miss.py` measures it against such an upstream); here each answer
    /// is assembled from its parts on the one connection.
    @Test func connection_AcknowledgesAtOnce_WhenAnAnswerArrivesInParts() async throws {
        let upstream = try ScriptedUpstream { _, _ in
            // The body 20 ms after the head, from the upstream's own timer: a separate segment.
            let release = DispatchSemaphore(value: 0)
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { release.signal() }
            return .respondThenLater("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n", later: "ok", release: release)
        }
        defer { upstream.stop() }
        let client = HTTPClient()
        for index in 0..<4 {
            let response = try await client.send(
                HTTPRequest(method: .get, target: "/\(index)"), to: "127.0.0.1", port: upstream.port,
                timeouts: HTTPClient.Timeouts(firstByte: .seconds(30), total: .seconds(30)))
            #expect(response.status == 200 && HTTPClientTests.body(response) == "ok", "answer \(index)")
        }
        #expect(upstream.requestLines.count == 4)
        #expect(upstream.acceptedConnections == 1)
    }
}
