import Foundation
import HTTP1
import RDSTesting
import Testing

@testable import Gateway

struct EndToEndHookTests {
    static let secret = "s3cret"

    /// A gateway whose `items` repository has a hook and reads tags from `Surrogate-Key`, in front
    /// of an upstream serving `value` with the tags `items` and `item-<id>`.
    static func started(_ value: UpstreamValue, disk: URL? = nil, clock: ManualClock? = nil) async throws -> (
        EndToEndGateway, EndToEndUpstream
    ) {
        let upstream = try await EndToEndUpstream.start()
        for id in ["a", "b"] {
            upstream.on("/items/\(id)") { _, _ in
                EndToEndUpstream.Reply(
                    headers: [
                        "Cache-Control": "max-age=60", "Content-Type": "text/plain", "Surrogate-Key": "items item-\(id)",
                    ], body: "\(id):\(value.value)")
            }
        }
        let gateway = try await EndToEndGateway.start(
            upstream: upstream.baseURL,
            settings: { settings in
                settings.hook = HookSettings(
                    secret: .environment("RDS_TEST_UNSET_HOOK_SECRET"), insecureDefault: Self.secret)
            }, clock: clock ?? EndToEndGateway.makeClock(), disk: disk)
        return (gateway, upstream)
    }

    /// Posts `body` to the hook of `items`, signed with `secret` at `timestamp`.
    static func postSigned(
        _ gateway: EndToEndGateway, _ body: String, secret: String = secret, timestamp: Date? = nil
    ) async throws -> HTTPResponse {
        let time = String(Int((timestamp ?? gateway.clock.now).timeIntervalSince1970))
        let code = HMACSHA256.code(key: Array(secret.utf8), message: Array("\(time).\(body)".utf8))
        return try await gateway.send(
            .post, "/hooks/items",
            headers: ["X-RDS-Timestamp": time, "X-RDS-Signature": "sha256=" + HMACSHA256.hex(code),
                "Content-Type": "application/json"], body: body)
    }

    @Test func refreshHook_BringsAChangeAtTheUpstreamToSubscribers() async throws {
        let value = UpstreamValue("v1")
        let (gateway, upstream) = try await Self.started(value)
        let first = try await gateway.get("/items/a")
        #expect(first.text == "a:v1")
        #expect(first.headers["Surrogate-Key"] == nil)
        let events = try gateway.subscribe("/items/a")
        await events.waitForEvents(1)
        value.value = "v2"
        let answer = try await Self.postSigned(gateway, #"{"action":"refresh","paths":["/items/a"]}"#)
        #expect(answer.status == 200)
        #expect(answer.json["affected"] as? Int == 1)
        #expect((answer.json["id"] as? String)?.isEmpty == false)
        await events.waitForLast { $0.name == "loaded" && $0.data.contains("a:v2") }
        #expect(events.names.first == "loaded")
        #expect(try await gateway.get("/items/a").text == "a:v2")
        events.close()
        await gateway.stop()
        await upstream.stop()
    }

    @Test func badSignatures_Are401Problems_CountedInMetrics() async throws {
        let (gateway, upstream) = try await Self.started(UpstreamValue("v1"))
        let body = #"{"action":"invalidate","paths":["/items/a"]}"#
        let wrongSecret = try await Self.postSigned(gateway, body, secret: "guess")
        #expect(wrongSecret.status == 401)
        #expect(wrongSecret.json["code"] as? String == "hook_unauthorized")
        let replayed = try await Self.postSigned(gateway, body, timestamp: gateway.clock.now - 301)
        #expect(replayed.status == 401)
        let unsigned = try await gateway.send(.post, "/hooks/items", body: body)
        #expect(unsigned.status == 401)
        let badBody = try await Self.postSigned(gateway, #"{"action":"explode"}"#)
        #expect(badBody.status == 400)
        let metrics = try await gateway.get("/metrics").text
        #expect(metrics.contains(#"rds_gateway_hook_requests_total{repository="items",outcome="unauthorized"} 3"#))
        #expect(metrics.contains(#"rds_gateway_hook_requests_total{repository="items",outcome="bad_request"} 1"#))
        await gateway.stop()
        await upstream.stop()
    }

    @Test func repositoryWithoutASecret_HasNoHook() async throws {
        let upstream = try await EndToEndUpstream.start()
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        let answer = try await Self.postSigned(gateway, #"{"action":"refresh","paths":["/items/a"]}"#)
        #expect(answer.status == 404)
        await gateway.stop()
        await upstream.stop()
    }

    @Test func tagPurges_HardAndSoft_CountTheResourcesTheyReach() async throws {
        let value = UpstreamValue("v1")
        let (gateway, upstream) = try await Self.started(value)
        _ = try await gateway.get("/items/a")
        _ = try await gateway.get("/items/b")
        let state = try await gateway.get("/admin/repositories/items/state?path=/items/a")
        #expect(state.json["tags"] as? [String] == ["items", "item-a"])
        value.value = "v2"
        let soft = try await gateway.send(.delete, "/admin/repositories/items/cache?tag=items&soft=true")
        #expect(soft.json["count"] as? Int == 2)
        let stale = try await gateway.get("/items/a")
        #expect(stale.text == "a:v1")
        #expect(stale.headers["X-Cache"] == "STALE")
        try #require(await eventually { upstream.calls("/items/a") >= 2 })
        let hook = try await Self.postSigned(gateway, #"{"action":"invalidate","tags":["item-b"]}"#)
        #expect(hook.json["affected"] as? Int == 1)
        let missAgain = try await gateway.get("/items/b")
        #expect(missAgain.headers["X-Cache"] == "MISS")
        #expect(missAgain.text == "b:v2")
        await gateway.stop()
        await upstream.stop()
    }

    @Test func tagIndex_SurvivesARestart_WithTheDiskEntries() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rds-tags-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (first, upstream) = try await Self.started(UpstreamValue("v1"), disk: folder)
        _ = try await first.get("/items/a")
        await first.stop()
        await upstream.stop()
        let (second, upstream2) = try await Self.started(UpstreamValue("v2"), disk: folder, clock: first.clock)
        var purged = 0
        while purged == 0 {
            let answer = try await second.send(.delete, "/admin/repositories/items/cache?tag=item-a")
            purged = answer.json["count"] as? Int ?? 0
        }
        #expect(purged == 1)
        #expect(try await second.get("/items/a").headers["X-Cache"] == "MISS")
        await second.stop()
        await upstream2.stop()
    }
}
