import HTTP1
import Testing

/// A client's destinations: one per `host:port`, sharing its pool whichever way a call names it.
struct HTTPClientDestinationTests {
    @Test func destination_IsOnePerHostAndPort() {
        let client = HTTPClient()
        #expect(client.destination(host: "127.0.0.1", port: 80) === client.destination(host: "127.0.0.1", port: 80))
        #expect(client.destination(host: "127.0.0.1", port: 80) !== client.destination(host: "127.0.0.1", port: 81))
        #expect(client.destination(host: "::1", port: 80) !== client.destination(host: "127.0.0.1", port: 80))
    }

    @Test func send_ToADestination_ReusesTheConnectionOfItsHostAndPort() async throws {
        let upstream = try ScriptedUpstream { _, _ in .respond("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok") }
        defer { upstream.stop() }
        let client = HTTPClient()
        let destination = client.destination(host: "127.0.0.1", port: upstream.port)
        _ = try await client.send(HTTPRequest(method: .get, target: "/a"), to: destination)
        #expect(client.idleConnectionCount(host: "127.0.0.1", port: upstream.port) == 1)
        let second = try await client.send(
            HTTPRequest(method: .get, target: "/b"), to: "127.0.0.1", port: upstream.port)
        _ = try await client.send(HTTPRequest(method: .get, target: "/c"), to: destination)
        #expect(HTTPClientTests.body(second) == "ok")
        #expect(upstream.acceptedConnections == 1)
        #expect(upstream.requestLines.count == 3)
    }
}
