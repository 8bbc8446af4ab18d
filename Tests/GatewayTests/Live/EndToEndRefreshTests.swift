import Foundation
import Gateway
import HTTP1
import Testing

struct EndToEndRefreshTests {
    /// The upstream's resource, changed by the test directly at the upstream.
    private static func serve(_ upstream: EndToEndUpstream, _ path: String, value: @escaping @Sendable () -> String) {
        upstream.on(path) { request, _ in
            let body = value()
            let etag = "\"\(body)\""
            if request.headers["If-None-Match"] == etag {
                return EndToEndUpstream.Reply(status: 304, headers: ["Cache-Control": "max-age=60", "ETag": etag])
            }
            return EndToEndUpstream.Reply(
                headers: ["Cache-Control": "max-age=60", "Content-Type": "text/plain", "ETag": etag], body: body)
        }
    }

    @Test func subscriber_SeesAChangeMadeAtTheUpstream_WithoutAnyRequest() async throws {
        let upstream = try await EndToEndUpstream.start()
        let current = UpstreamValue("v1")
        Self.serve(upstream, "/items/a") { current.value }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.refresh = RefreshSettings(keys: ["subscribed"], jitter: 0)
        }
        let events = try gateway.subscribe("/items/a")
        await events.waitForLast { $0.name == "loaded" }
        #expect(events.names.first == "initialized" || events.names.first == "loading")
        #expect(events.events.last?.data.contains("v1") == true)
        let nextRefresh = (gateway.clock.now + 48).formatted(.iso8601)
        var state = try await Self.stateOnceTheNextRefreshIsSet(gateway, at: nextRefresh)
        #expect(state.json["source"] as? String == "upstream")
        #expect(state.json["nextRefreshAt"] as? String == nextRefresh)
        #expect(state.json["expiresAt"] as? String == (gateway.clock.now + 60).formatted(.iso8601))
        #expect(state.json["waiters"] as? Int == 0)

        gateway.clock.advance(by: 48)
        await events.waitForLast { $0.name == "loaded" && $0.data.contains(#""origin":"revalidated""#) }
        #expect(upstream.requests("/items/a").last?.headers["If-None-Match"] == "\"v1\"")
        let secondRefresh = (gateway.clock.now + 48).formatted(.iso8601)
        state = try await Self.stateOnceTheNextRefreshIsSet(gateway, at: secondRefresh)
        #expect(state.json["nextRefreshAt"] as? String == secondRefresh)

        current.value = "v2"
        gateway.clock.advance(by: 48)
        await events.waitForLast { $0.name == "loaded" && $0.data.contains("v2") }
        #expect(upstream.calls("/items/a") == 3)
        events.close()
        await gateway.stop()
        await upstream.stop()
    }

    /// The admin state of `/items/a` once its next refresh is set to `date` (or after 5 s): the
    /// refresh that loaded the value sets it just after its event went out, so a test that moves
    /// the clock waits for it first.
    private static func stateOnceTheNextRefreshIsSet(_ gateway: EndToEndGateway, at date: String) async throws
        -> HTTPResponse
    {
        var state = try await gateway.get("/admin/repositories/items/state?path=/items/a")
        for _ in 0..<250 where state.json["nextRefreshAt"] as? String != date {
            try await Task.sleep(for: .milliseconds(20))
            state = try await gateway.get("/admin/repositories/items/state?path=/items/a")
        }
        return state
    }

    @Test func failedRefresh_IsReportedWithTheCachedValueAndTheNextAttempt() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, call in
            call == 1
                ? EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60", "Content-Type": "text/plain"], body: "v1")
                : EndToEndUpstream.Reply(status: 503, body: "down")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.refresh = RefreshSettings(keys: ["recent"], jitter: 0)
        }
        _ = try await gateway.get("/items/a")
        let events = try gateway.subscribe("/items/a")
        await events.waitForEvents(1)
        _ = try await Self.stateOnceTheNextRefreshIsSet(gateway, at: (gateway.clock.now + 48).formatted(.iso8601))
        gateway.clock.advance(by: 48)
        await events.waitForLast { $0.name == "failed" }
        let state = try await Self.stateOnceTheNextRefreshIsSet(gateway, at: (gateway.clock.now + 1).formatted(.iso8601))
        #expect(state.json["state"] as? String == "failed")
        #expect(((state.json["cached"] as? [String: Any])?["body"] as? String) == "v1")
        #expect(state.json["nextRefreshAt"] as? String == (gateway.clock.now + 1).formatted(.iso8601))
        events.close()
        await gateway.stop()
        await upstream.stop()
    }

    @Test func diskOnlyEntry_IsReportedLoadedFromDisk_AfterARestart() async throws {
        let upstream = try await EndToEndUpstream.start()
        Self.serve(upstream, "/items/a") { "v1" }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rds-live-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await EndToEndGateway.start(upstream: upstream.baseURL, disk: folder)
        _ = try await first.get("/items/a")
        await first.stop()
        let second = try await EndToEndGateway.start(upstream: upstream.baseURL, clock: first.clock, disk: folder)
        let state = try await second.get("/admin/repositories/items/state?path=/items/a")
        #expect(state.json["state"] as? String == "loaded")
        #expect(state.json["source"] as? String == "disk")
        #expect(state.json["origin"] as? String == "cache")
        #expect(state.json["nextRefreshAt"] is NSNull)
        await second.stop()
        await upstream.stop()
    }
}
