import Sockets
import Testing

@testable import HTTP1

/// The client holds arriving answers within a process-wide `HTTPBodyBudget`.
@Suite(.timeLimit(.minutes(1)))
struct HTTPClientBodyBudgetTests {
    static let bodySize = 600_000

    /// `/held` announces a large body, sends a little of it and stalls; `/large` and `/small`
    /// answer at once.
    static func upstream() throws -> ScriptedUpstream {
        let head = "HTTP/1.1 200 OK\r\nContent-Length: \(bodySize)\r\n\r\n"
        return try ScriptedUpstream { connection, _ in
            .respond(head + (connection == 0 ? "start" : String(repeating: "x", count: bodySize)))
        }
    }

    @Test func largeAnswer_IsRefused_WhileAnotherHoldsTheBudget_AndPassesOnceItEnds() async throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let budget = HTTPBodyBudget(limit: 1_000_000)
        let client = HTTPClient(configuration: HTTPClient.Configuration(bodyBudget: budget))
        let held = Task {
            try await client.send(
                HTTPRequest(method: .get, target: "/held"), to: "127.0.0.1", port: upstream.port,
                timeouts: HTTPClient.Timeouts(total: .seconds(50)))
        }
        try await HTTPClientTests.waitUntil { budget.bytesInUse >= Self.bodySize }
        let refused = await HTTPClientTests.clientError {
            _ = try await client.send(HTTPRequest(method: .get, target: "/large"), to: "127.0.0.1", port: upstream.port)
        }
        #expect(refused?.kind == .overBudget)
        held.cancel()
        _ = await held.result
        try await HTTPClientTests.waitUntil { budget.bytesInUse == 0 }
        let response = try await client.send(
            HTTPRequest(method: .get, target: "/large"), to: "127.0.0.1", port: upstream.port)
        #expect(HTTPClientTests.body(response).count == Self.bodySize)
        #expect(budget.bytesInUse == 0)
    }

    /// The call, which keeps its exchange, outlives its completion on the loop: the budget must be
    /// given back before the completion runs, not when the exchange is dropped.
    @Test func answer_GivesBackItsBudget_BeforeTheCompletionHearsOfIt() async throws {
        let body = String(repeating: "x", count: Self.bodySize)
        let upstream = try ScriptedUpstream { _, _ in
            .respond("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        }
        defer { upstream.stop() }
        let loop = try EventLoop(checkInterval: .seconds(1))
        try loop.start()
        defer { loop.stop() }
        let budget = HTTPBodyBudget(limit: 1_000_000)
        let client = HTTPClient(configuration: HTTPClient.Configuration(bodyBudget: budget))
        let (size, inUse) = await withCheckedContinuation { continuation in
            loop.execute {
                let destination = client.destination(host: "127.0.0.1", port: upstream.port)
                client.send(HTTPRequest(method: .get, target: "/large"), to: destination, on: loop) { result in
                    let size = (try? result.get()).map { HTTPClientTests.body($0).count }
                    continuation.resume(returning: (size, budget.bytesInUse))
                }
            }
        }
        #expect(size == Self.bodySize)
        #expect(inUse == 0)
    }

    @Test func smallAnswers_PassTheirAllowance_EvenWhenTheBudgetIsFull() async throws {
        let upstream = try ScriptedUpstream { _, _ in .respond(HTTPClientTests.ok, thenClose: false) }
        defer { upstream.stop() }
        let budget = HTTPBodyBudget(limit: 1, allowance: 1_024)
        let client = HTTPClient(configuration: HTTPClient.Configuration(bodyBudget: budget))
        let response = try await client.send(
            HTTPRequest(method: .get, target: "/"), to: "127.0.0.1", port: upstream.port)
        #expect(HTTPClientTests.body(response) == "ok")
    }
}
