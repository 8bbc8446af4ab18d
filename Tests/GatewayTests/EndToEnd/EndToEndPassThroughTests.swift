import Foundation
import Gateway
import HTTP1
import Testing

/// A resource the upstream marks `no-store` (hit-for-pass after its first answer) through the
/// gateway: each client's request reaches the upstream and gets that call's answer, with the
/// same fields as the first (single-flight) answer; subscribers still see each read.
@Suite(.timeLimit(.minutes(1)))
struct EndToEndPassThroughTests {
    private static func startPassing() async throws -> (EndToEndGateway, EndToEndUpstream) {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/live") { _, call in
            EndToEndUpstream.Reply(
                headers: ["Content-Type": "text/plain", "Cache-Control": "no-store", "Set-Cookie": "visit=\(call)"],
                body: "call \(call)", waitForGate: call > 1)
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        return (gateway, upstream)
    }

    @Test func concurrentClients_EachGetTheirOwnUpstreamAnswer_WithTheFirstAnswersFields() async throws {
        let (gateway, upstream) = try await Self.startPassing()
        let first = try await gateway.get("/items/live")
        let clients = 3
        let answers = Task {
            try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
                for _ in 0..<clients { group.addTask { try await gateway.get("/items/live") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        // Every client's call is held at the upstream at once: none waits for another's answer.
        await upstream.waitForArrivals(clients)
        upstream.openGate()
        let responses = try await answers.value

        #expect(first.text == "call 1" && first.headers["X-Cache"] == "BYPASS")
        #expect(Set(responses.map(\.text)) == ["call 2", "call 3", "call 4"])
        for response in responses {
            #expect(response.status == 200)
            #expect(response.headers.fields.map(\.name) == first.headers.fields.map(\.name))
            #expect(response.headers["Set-Cookie"] == "visit=\(response.text.dropFirst(5))")
            for name in ["Content-Type", "Cache-Control", "X-Cache", "Cache-Status"] {
                #expect(response.headers[name] == first.headers[name], "\(name)")
            }
        }
        #expect(upstream.calls("/items/live") == clients + 1)
        await gateway.stop()
        await upstream.stop()
    }

    @Test func subscriber_SeesLoadingThenLoaded_ForEachRead() async throws {
        let (gateway, upstream) = try await Self.startPassing()
        upstream.openGate()
        _ = try await gateway.get("/items/live")
        let events = try gateway.subscribe("/items/live")
        await events.waitForEvents(1)

        let answer = try await gateway.get("/items/live")
        await events.waitForEvents(3)

        #expect(answer.text == "call 2")
        #expect(events.names == ["initialized", "loading", "loaded"])
        #expect(events.events.last?.data.contains("call 2") == true)
        events.close()
        await gateway.stop()
        await upstream.stop()
    }
}
