import Foundation
import Gateway
import HTTP1
import Testing

struct EndToEndPolicyTests {
    @Test func get_ServesStaleAndRefreshesInTheBackground_WithinStaleWhileRevalidate() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, call in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60"], body: "v\(call)")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.staleWhileRevalidate = 30
        }
        let events = try gateway.subscribe("/items/a")
        await events.waitForEvents(1)
        _ = try await gateway.get("/items/a")
        gateway.clock.advance(by: 70)
        let stale = try await gateway.get("/items/a")
        #expect(stale.text == "v1")
        #expect(stale.headers["X-Cache"] == "STALE")
        #expect(stale.headers["X-Resource-State"] == nil)
        #expect(stale.headers["Cache-Status"] == "rds-gateway; hit; ttl=-10")
        await events.waitForEvents(5)
        #expect(events.names == ["initialized", "loading", "loaded", "loading", "loaded"])
        let fresh = try await gateway.get("/items/a")
        #expect(fresh.text == "v2")
        #expect(fresh.headers["X-Cache"] == "HIT")
        #expect(upstream.calls("/items/a") == 2)
        events.close()
        await gateway.stop()
        await upstream.stop()
    }

    @Test func get_AsksTheUpstreamEveryTime_WhenNetworkFirst() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, call in
            call < 3
                ? EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60"], body: "v\(call)")
                : EndToEndUpstream.Reply(status: 503, body: "down")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.policy = .networkFirst
            settings.staleIfError = 300
        }
        #expect(try await gateway.get("/items/a").text == "v1")
        let second = try await gateway.get("/items/a")
        #expect(second.text == "v2")
        #expect(second.headers["X-Cache"] == "MISS")
        let fallback = try await gateway.get("/items/a")
        #expect(fallback.text == "v2")
        #expect(fallback.headers["X-Cache"] == "STALE")
        #expect(fallback.headers["X-Resource-State"] == "failed")
        #expect(upstream.calls("/items/a") == 3)
        let head = try await gateway.send(.head, "/items/a")
        #expect(head.status == 200)
        #expect(head.text.isEmpty)
        await gateway.stop()
        await upstream.stop()
    }
}
