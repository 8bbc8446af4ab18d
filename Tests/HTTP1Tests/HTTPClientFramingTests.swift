import Dispatch
import Testing

@testable import HTTP1

/// A pooled upstream connection is trusted only while its answers are framed exactly: bytes past
/// an answer make that answer an error, and bytes arriving while the connection is idle condemn it,
/// so a late or unasked answer is never read as the next request's.
@Suite(.timeLimit(.minutes(1)))
struct HTTPClientFramingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var method: HTTPMethod
        var answer: String
        var testDescription: String { name }
    }

    static let extraBytes: [Case] = [
        Case(
            name: "an extra response", method: .get,
            answer: HTTPClientTests.ok + "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nevil"),
        Case(name: "Content-Length short of the body", method: .get, answer: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokay"),
        Case(name: "HEAD answered with a body", method: .head, answer: "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody"),
        Case(name: "204 with a body", method: .get, answer: "HTTP/1.1 204 No Content\r\n\r\nbody"),
        Case(name: "304 with a body", method: .get, answer: "HTTP/1.1 304 Not Modified\r\n\r\nbody"),
    ]

    @Test(arguments: extraBytes)
    func send_ThrowsMalformedResponse_AndDropsConnection_WhenBytesFollowTheAnswer(_ row: Case) async throws {
        let upstream = try ScriptedUpstream { connection, _ in
            .respond(connection == 0 ? row.answer : HTTPClientTests.ok)
        }
        defer { upstream.stop() }
        let client = HTTPClient()
        let error = await HTTPClientTests.clientError {
            _ = try await client.send(HTTPRequest(method: row.method, target: "/a"), to: "127.0.0.1", port: upstream.port)
        }
        #expect(error?.kind == .malformedResponse)
        #expect((error?.underlying as? HTTPParseError)?.code == .bytesAfterMessage)
        #expect(client.idleConnectionCount(host: "127.0.0.1", port: upstream.port) == 0)
        let next = try await client.send(HTTPRequest(method: .get, target: "/b"), to: "127.0.0.1", port: upstream.port)
        #expect(HTTPClientTests.body(next) == "ok")
        #expect(upstream.acceptedConnections == 2)
    }

    @Test func send_NeverReadsALateExtraAnswer_AsTheNextRequestsAnswer() async throws {
        let release = DispatchSemaphore(value: 0)
        let upstream = try ScriptedUpstream { connection, _ in
            connection == 0
                ? .respondThenLater(
                    HTTPClientTests.ok, later: "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nevil", release: release)
                : .respond("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\ngood")
        }
        defer {
            release.signal()
            upstream.stop()
        }
        let client = HTTPClient()
        let first = try await client.send(HTTPRequest(method: .get, target: "/a"), to: "127.0.0.1", port: upstream.port)
        #expect(HTTPClientTests.body(first) == "ok")
        release.signal()
        try await HTTPClientTests.waitUntil { client.idleConnectionCount(host: "127.0.0.1", port: upstream.port) == 0 }
        let second = try await client.send(HTTPRequest(method: .get, target: "/b"), to: "127.0.0.1", port: upstream.port)
        #expect(HTTPClientTests.body(second) == "good")
        #expect(upstream.acceptedConnections == 2)
    }
}
