import Dispatch
import Sockets
import Testing

@testable import HTTP1

/// One upstream connection used directly, without the client's pool.
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
        let deadline = LoopInstant.now + .seconds(30)
        let loop = try EventLoop(checkInterval: .seconds(1))
        try loop.start()
        defer { loop.stop() }
        let connection = try await HTTPClientConnection.connect(
            to: try SocketAddress(host: "127.0.0.1", port: upstream.port),
            destination: HTTPClient.Destination(host: "127.0.0.1", port: upstream.port), loop: loop,
            deadline: deadline, phase: .connect)
        defer { connection.close() }
        for index in 0..<4 {
            let exchange = HTTPClientExchange(
                HTTPRequest(method: .get, target: "/\(index)"), host: "127.0.0.1", port: upstream.port,
                limits: HTTPParserLimits(), timeouts: HTTPClient.Timeouts(firstByte: .seconds(30), total: .seconds(30)))
            let (response, reusable) = try await connection.send(exchange)
            #expect(response.status == 200 && reusable && HTTPClientTests.body(response) == "ok", "answer \(index)")
        }
        #expect(upstream.requestLines.count == 4)
        #expect(upstream.acceptedConnections == 1)
    }
}
