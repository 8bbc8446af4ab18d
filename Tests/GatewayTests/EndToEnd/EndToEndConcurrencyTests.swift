import Foundation
import Gateway
import HTTP1
import RDSTesting
import Testing

struct EndToEndConcurrencyTests {
    @Test func get_MakesOneUpstreamCall_For200ConcurrentClientsOnAColdKey() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/cold") { _, call in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60"], body: "call \(call)", waitForGate: true)
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        let route = try #require(gateway.container.route(named: "items"))
        let key = try #require(route.key(forTarget: "/items/cold"))
        let store = try #require(gateway.container.makeRepository(named: "items")).store
        let clients = 200
        let answers = Task {
            try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
                for _ in 0..<clients { group.addTask { try await gateway.get("/items/cold") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        await upstream.waitForArrivals(1)
        let deadline = ContinuousClock.now + .seconds(20)
        while store.waiterCount(for: key) < clients, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(store.waiterCount(for: key) == clients)
        upstream.openGate()
        let responses = try await answers.value
        #expect(responses.count == clients)
        #expect(responses.allSatisfy { $0.status == 200 && $0.text == "call 1" })
        #expect(upstream.calls("/items/cold") == 1)
        await gateway.stop()
        await upstream.stop()
    }

    @Test func get_CancelsTheUpstreamCall_WhenTheOnlyClientGoesAway() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/slow") { _, _ in EndToEndUpstream.Reply(body: "late", waitForGate: true) }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        let route = try #require(gateway.container.route(named: "items"))
        let key = try #require(route.key(forTarget: "/items/slow"))
        let store = try #require(gateway.container.makeRepository(named: "items")).store
        let socket = try EndToEndClient.connect(.get, "/items/slow", port: gateway.port, headers: [:], body: "")
        await upstream.waitForArrivals(1)
        #expect(store.isFetching(key))
        EndToEndClient.disconnect(socket)
        #expect(await eventually { !store.isFetching(key) })
        upstream.openGate()
        await gateway.stop()
        await upstream.stop()
    }

    @Test func get_KeepsTheUpstreamCall_WhenAnotherClientStillWaits() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/shared") { _, _ in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60"], body: "shared", waitForGate: true)
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        let route = try #require(gateway.container.route(named: "items"))
        let key = try #require(route.key(forTarget: "/items/shared"))
        let store = try #require(gateway.container.makeRepository(named: "items")).store
        let leaving = try EndToEndClient.connect(.get, "/items/shared", port: gateway.port, headers: [:], body: "")
        let staying = Task { try await gateway.get("/items/shared") }
        await upstream.waitForArrivals(1)
        let deadline = ContinuousClock.now + .seconds(10)
        while store.waiterCount(for: key) < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        EndToEndClient.disconnect(leaving)
        while store.waiterCount(for: key) > 1, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(store.isFetching(key))
        upstream.openGate()
        let answer = try await staying.value
        #expect(answer.text == "shared")
        #expect(answer.headers["X-Cache"] == "MISS")
        #expect(upstream.calls("/items/shared") == 1)
        await gateway.stop()
        await upstream.stop()
    }
}
