import Foundation
import Gateway
import HTTP1
import Testing

struct EndToEndMultiTopicTests {
    private static func started() async throws -> (EndToEndGateway, EndToEndUpstream, UpstreamValue) {
        let value = UpstreamValue("v1")
        let upstream = try await EndToEndUpstream.start()
        for id in ["a", "b", "c"] {
            upstream.on("/items/\(id)") { _, _ in
                EndToEndUpstream.Reply(
                    headers: ["Cache-Control": "max-age=60", "Content-Type": "text/plain"], body: "\(id):\(value.value)")
            }
        }
        upstream.on("/other/x") { _, _ in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60", "Content-Type": "text/plain"], body: "x")
        }
        let gateway = try await EndToEndGateway.start(
            services: ["up": ServiceSettings(baseURL: upstream.baseURL)],
            repositories: [
                "items": RepositorySettings(route: "/items/{id}", service: "up"),
                "other": RepositorySettings(route: "/other/{id}", service: "up"),
            ])
        return (gateway, upstream, value)
    }

    @Test func oneStream_FollowsAPathAndARouteTemplate_WithIdsAndPaths() async throws {
        let (gateway, upstream, _) = try await Self.started()
        let events = try gateway.subscribe("/events?topic=/other/x&topic=/items/%7Bid%7D")
        await events.waitForEvents(1)
        #expect(events.events[0].name == "initialized")
        #expect(events.events[0].data.contains(#""path":"/other/x""#))
        _ = try await gateway.get("/items/a")
        _ = try await gateway.get("/other/x")
        _ = try await gateway.get("/items/b")
        await events.waitForLast { $0.name == "loaded" && $0.data.contains("b:v1") }
        let loaded = events.events.filter { $0.name == "loaded" }.map(\.data)
        #expect(loaded.contains { $0.contains(#""path":"/items/a""#) && $0.contains(#""repository":"items""#) })
        #expect(loaded.contains { $0.contains(#""path":"/other/x""#) && $0.contains(#""repository":"other""#) })
        let ids = events.events.compactMap(\.id)
        #expect(ids.count == events.events.count)
        #expect(Set(ids).count == ids.count)
        events.close()
        await gateway.stop()
        await upstream.stop()
    }

    @Test func resume_ReplaysMissedEvents_AndSaysRefetchWhenTheyAreGone() async throws {
        let (gateway, upstream, value) = try await Self.started()
        let first = try gateway.subscribe("/events?topic=/items/a&topic=/items/b")
        await first.waitForEvents(2)
        let lastSeen = try #require(first.events.last?.id)
        first.close()
        _ = try await gateway.get("/items/a")
        value.value = "v2"
        _ = try await gateway.get("/items/b")
        _ = try await gateway.get("/items/c")
        let resumed = try gateway.subscribe("/events?topic=/items/a&topic=/items/b", headers: ["Last-Event-ID": lastSeen])
        await resumed.waitForLast { $0.name == "loaded" && $0.data.contains("b:v2") }
        #expect(resumed.events.contains { $0.name == "loaded" && $0.data.contains("a:v1") })
        #expect(!resumed.events.contains { $0.data.contains("/items/c") })
        #expect(!resumed.names.contains("initialized"))
        resumed.close()
        let stale = try gateway.subscribe("/events?topic=/items/a&lastEventID=someone-else-7")
        await stale.waitForEvents(2)
        #expect(stale.names == ["refetch", "loaded"])
        stale.close()
        await gateway.stop()
        await upstream.stop()
    }

    @Test func oneSubscriber_Follows1000Topics_WhenTheHeaderLimitAllowsTheirList() async throws {
        let upstream = try await EndToEndUpstream.start()
        let configuration = GatewayConfiguration(
            server: ServerSettings(port: 0, limits: ServerLimits(maxHeaderBytes: 65_536)),
            services: ["up": ServiceSettings(baseURL: upstream.baseURL)],
            repositories: ["items": RepositorySettings(route: "/items/{id}", service: "up")])
        let gateway = try await EndToEndGateway.start(configuration: configuration)
        let topics = (0..<1_000).map { "topic=/items/t\($0)" }.joined(separator: "&")
        let events = try gateway.subscribe("/events?" + topics)
        await events.waitForEvents(1_000)
        #expect(Set(events.events.map(\.data)).count == 1_000)
        #expect(events.names.allSatisfy { $0 == "initialized" })
        events.close()
        await gateway.stop()
        await upstream.stop()
    }

    @Test func badTopics_AreRefused() async throws {
        let (gateway, upstream, _) = try await Self.started()
        #expect(try await gateway.get("/events").status == 400)
        #expect(try await gateway.get("/events?topic=/nowhere/1").status == 400)
        #expect(try await gateway.send(.post, "/events?topic=/items/a").status == 405)
        await gateway.stop()
        await upstream.stop()
    }
}
