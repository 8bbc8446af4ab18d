import Foundation
import Gateway
import HTTP1
import RDS
import RDSTesting
import Sockets
import Testing

/// ``HTTPService`` over real transports and real sockets (an upstream on 127.0.0.1, port 0).
@Suite(.timeLimit(.minutes(1)))
struct HTTPServiceSocketTests {
    static let secret = "k3y-that-must-not-leak"

    static func makeService(port: Int, transport: any Transport, timeouts: UpstreamTimeouts = .init()) -> HTTPService {
        HTTPService(
            name: "demo", baseURL: URL(string: "http://127.0.0.1:\(port)/v1")!, timeouts: timeouts,
            credentials: [
                SecretCredentialProvider(
                    reader: SecretReader(.environment("K"), what: "API key", environment: ["K": secret]),
                    placement: .queryParameter("key"))
            ],
            transport: transport)
    }

    static let transports: [@Sendable () -> any Transport] = [{ HTTP1Transport() }, { URLSessionTransport() }]

    @Test(arguments: transports)
    func get_RevalidatesWithETag_OverRealSocket(_ makeTransport: @Sendable () -> any Transport) async throws {
        let upstream = try RawSocketUpstream { head, _ in
            let conditional = head.lowercased().contains("if-none-match: \"v1\"")
            return Array(
                (conditional
                    ? "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nCache-Control: max-age=30\r\n\r\n"
                    : "HTTP/1.1 200 OK\r\nETag: \"v1\"\r\nCache-Control: max-age=10\r\nContent-Length: 2\r\n\r\nhi")
                    .utf8)
        }
        defer { upstream.stop() }
        let service = Self.makeService(port: upstream.port, transport: makeTransport())
        let key = ResourceKey(repository: "r", path: "/greeting")
        guard case .fetched(let fetched) = try await service.get(key, ifChangedFrom: nil) else {
            Issue.record("expected a fetched value")
            return
        }
        #expect(fetched.value.body == Array("hi".utf8))
        #expect(fetched.freshness.lifetime == 10)
        let revalidated = try await service.get(key, ifChangedFrom: fetched.validators)
        guard case .notModifiedRenewing(let renew) = revalidated else {
            Issue.record("expected not modified")
            return
        }
        #expect(renew(fetched.value).freshness.lifetime == 30)
        #expect(upstream.requests.first?.hasPrefix("GET /v1/greeting?key=\(Self.secret) HTTP/1.1") == true)
    }

    @Test(arguments: transports)
    func get_TimesOut_WithoutKeyInError(_ makeTransport: @Sendable () -> any Transport) async throws {
        let upstream = try RawSocketUpstream { _, _ in nil }
        defer { upstream.stop() }
        // Silence makes a timeout fire however long the limits are (HTTP1Transport's first-byte
        // limit after 1 s; URLSession's call here ends at the 5 s total); limits this long let the
        // request (with the key) reach the upstream first even on a loaded machine.
        let service = Self.makeService(
            port: upstream.port, transport: makeTransport(),
            timeouts: UpstreamTimeouts(connect: 5, firstByte: 1, total: 5))
        let error = await #expect(throws: ServiceError.self) {
            try await service.get(ResourceKey(repository: "r", path: "/slow", query: "q=1"), ifChangedFrom: nil)
        }
        let failure = try #require(error)
        #expect(failure.kind == .timeout)
        #expect(await upstream.requests(atLeast: 1).first?.contains(Self.secret) == true)
        let problem = ProblemDetails(error: failure, instance: "/slow")
        let rendered = "\(failure)" + String(decoding: problem.jsonBytes(), as: UTF8.self)
        #expect(!rendered.contains(Self.secret))
        #expect(ErrorChain(failure).links.map(\.code) == ["upstream_timeout", "transport_timeout"])
    }

    @Test(arguments: transports)
    func get_FailsUnavailable_WhenRefused(_ makeTransport: @Sendable () -> any Transport) async throws {
        let closed = try RefusingPort()
        defer { withExtendedLifetime(closed) {} }
        let error = await #expect(throws: ServiceError.self) {
            try await Self.makeService(port: closed.port, transport: makeTransport())
                .get(ResourceKey(repository: "r", path: "/"), ifChangedFrom: nil)
        }
        #expect(error?.kind == .unavailable)
        #expect((error?.inner as? TransportError)?.kind == .refused)
    }

    @Test(arguments: transports)
    func get_ThrowsCancellation_WhenClientGoesAwayMidCall(_ makeTransport: @Sendable () -> any Transport)
        async throws
    {
        let upstream = try RawSocketUpstream { _, _ in nil }
        defer { upstream.stop() }
        let service = Self.makeService(port: upstream.port, transport: makeTransport())
        let call = Task { try await service.get(ResourceKey(repository: "r", path: "/hang"), ifChangedFrom: nil) }
        try #require(await eventually { !upstream.requests.isEmpty })
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
    }
}
