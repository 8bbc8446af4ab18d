import Foundation
import Gateway
import HTTP1
import RDSTesting
import Testing

/// Past `cache.inFlightBodyBytes`, a large miss gets a 503 Problem with `Retry-After`; the
/// gateway keeps serving everyone else.
@Suite(.timeLimit(.minutes(1)))
struct EndToEndInFlightBudgetTests {
    static let bodySize = 1_200_000

    @Test func largeMiss_Gets503WithRetryAfter_WhileTheBudgetIsHeld_AndOthersSucceed() async throws {
        let upstream = try RawSocketUpstream { request, _ in
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nCache-Control: max-age=60\r\n"
            if request.hasPrefix("GET /items/held ") {
                return Array((head + "Content-Length: \(Self.bodySize)\r\n\r\nstart").utf8)
            }
            let body = request.hasPrefix("GET /items/small ") ? "small" : String(repeating: "x", count: Self.bodySize)
            return Array((head + "Content-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
        }
        defer { upstream.stop() }
        let configuration = GatewayConfiguration(
            server: ServerSettings(port: 0), cache: CacheSettings(inFlightBodyBytes: 2 * 1_048_576),
            services: ["up": ServiceSettings(baseURL: "http://127.0.0.1:\(upstream.port)")],
            repositories: ["items": RepositorySettings(route: "/items/{id}", service: "up")])
        let container = try await Bootstrap.makeContainer(
            configuration: configuration, clock: EndToEndGateway.makeClock(), logger: RecordingLogger())
        let server = Bootstrap.makeServer(container: container)
        try await server.start()
        let port = server.port
        let held = Task { try await EndToEndClient.send(.get, "/items/held", port: port) }
        let budget = try #require(container.inFlightBodies)
        try #require(await eventually { budget.bytesInUse >= Self.bodySize })

        let refused = try await EndToEndClient.send(.get, "/items/large", port: port)
        #expect(refused.status == 503)
        #expect(refused.headers["Retry-After"] == "1")
        #expect(refused.headers["Content-Type"] == "application/problem+json")
        let problem = try #require(try JSONSerialization.jsonObject(with: Data(refused.text.utf8)) as? [String: Any])
        #expect(problem["code"] as? String == "transport_over_budget")

        let small = try await EndToEndClient.send(.get, "/items/small", port: port)
        #expect(small.status == 200)
        #expect(small.text == "small")

        upstream.stop()
        _ = await held.result
        #expect(await eventually { budget.bytesInUse == 0 })
        await server.shutdown(gracePeriod: .zero)
    }
}
