import Foundation
import Gateway
import HTTP1
import Testing

struct EndToEndCachingTests {
    @Test func get_MissesThenHits_AndRevalidatesOnceExpired() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, call in
            call == 2
                ? EndToEndUpstream.Reply(status: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=60"])
                : EndToEndUpstream.Reply(
                    headers: [
                        "Content-Type": "application/json", "Cache-Control": "max-age=60", "ETag": "\"v\(call)\"",
                    ],
                    body: #"{"call":\#(call)}"#)
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        let miss = try await gateway.get("/items/a")
        #expect(miss.status == 200)
        #expect(miss.headers["X-Cache"] == "MISS")
        #expect(miss.headers["Cache-Status"] == "rds-gateway; fwd=miss; stored; ttl=60")
        #expect(miss.text == #"{"call":1}"#)
        gateway.clock.advance(by: 10)
        let hit = try await gateway.get("/items/a")
        #expect(hit.headers["X-Cache"] == "HIT")
        #expect(hit.headers["Age"] == "10")
        #expect(hit.headers["Cache-Status"] == "rds-gateway; hit; ttl=50")
        #expect(hit.headers["ETag"] == "\"v1\"")
        #expect(upstream.calls("/items/a") == 1)
        gateway.clock.advance(by: 51)
        let revalidated = try await gateway.get("/items/a")
        #expect(revalidated.headers["X-Cache"] == "REVALIDATED")
        #expect(revalidated.text == #"{"call":1}"#)
        #expect(upstream.requests("/items/a").last?.headers["If-None-Match"] == "\"v1\"")
        gateway.clock.advance(by: 61)
        let changed = try await gateway.get("/items/a")
        #expect(changed.headers["X-Cache"] == "MISS")
        #expect(changed.text == #"{"call":3}"#)
        #expect(upstream.calls("/items/a") == 3)
        await gateway.stop()
        await upstream.stop()
    }

    @Test func get_Answers304_WhenClientHoldsTheRepresentation() async throws {
        let upstream = try await EndToEndUpstream.start()
        let lastModified = "Tue, 01 Sep 2026 10:00:00 GMT"
        upstream.on("/items/a") { _, _ in
            EndToEndUpstream.Reply(
                headers: ["Cache-Control": "max-age=60", "ETag": "W/\"abc\"", "Last-Modified": lastModified], body: "{}"
            )
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        _ = try await gateway.get("/items/a")
        let byTag = try await gateway.get("/items/a", headers: ["If-None-Match": "\"other\", W/\"abc\""])
        #expect(byTag.status == 304)
        #expect(byTag.text.isEmpty)
        #expect(byTag.headers["ETag"] == "W/\"abc\"")
        let byDate = try await gateway.get("/items/a", headers: ["If-Modified-Since": "Wed, 02 Sep 2026 10:00:00 GMT"])
        #expect(byDate.status == 304)
        let older = try await gateway.get("/items/a", headers: ["If-Modified-Since": "Mon, 31 Aug 2026 10:00:00 GMT"])
        #expect(older.status == 200)
        let otherTag = try await gateway.get("/items/a", headers: ["If-None-Match": "\"nope\""])
        #expect(otherTag.status == 200)
        #expect(upstream.calls("/items/a") == 1)
        await gateway.stop()
        await upstream.stop()
    }

    @Test func get_Revalidates_WhenClientSendsNoCache() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { request, _ in
            request.headers["If-None-Match"] == "\"v\""
                ? EndToEndUpstream.Reply(status: 304, headers: ["ETag": "\"v\"", "Cache-Control": "max-age=60"])
                : EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60", "ETag": "\"v\""], body: "{}")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        _ = try await gateway.get("/items/a")
        let forced = try await gateway.get("/items/a", headers: ["Cache-Control": "no-cache"])
        #expect(forced.headers["X-Cache"] == "REVALIDATED")
        #expect(forced.headers["Cache-Status"] == "rds-gateway; fwd=request; fwd-status=304; stored; ttl=60")
        #expect(upstream.calls("/items/a") == 2)
        await gateway.stop()
        await upstream.stop()
    }

    @Test func get_KeepsVariantsApart_WhenForwardedHeaderDiffers() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { request, _ in
            EndToEndUpstream.Reply(
                headers: ["Cache-Control": "max-age=60", "Vary": "Accept-Language", "Content-Type": "text/plain"],
                body: "hello in \(request.headers["Accept-Language"] ?? "none")")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.forwardHeaders = ["Accept-Language"]
        }
        let english = try await gateway.get("/items/a", headers: ["Accept-Language": "en"])
        let french = try await gateway.get("/items/a", headers: ["Accept-Language": "fr"])
        let englishAgain = try await gateway.get("/items/a", headers: ["Accept-Language": "en"])
        #expect(english.text == "hello in en")
        #expect(french.text == "hello in fr")
        #expect(french.headers["X-Cache"] == "MISS")
        #expect(englishAgain.text == "hello in en")
        #expect(englishAgain.headers["X-Cache"] == "HIT")
        #expect(upstream.calls("/items/a") == 2)
        await gateway.stop()
        await upstream.stop()
    }

    @Test(arguments: ["no-store", "private, max-age=60"])
    func get_DoesNotStore_WhenUpstreamForbids(cacheControl: String) async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, call in
            EndToEndUpstream.Reply(headers: ["Cache-Control": cacheControl], body: "call \(call)")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        let first = try await gateway.get("/items/a")
        let second = try await gateway.get("/items/a")
        #expect(first.headers["X-Cache"] == "BYPASS")
        #expect(first.headers["Cache-Status"] == "rds-gateway; fwd=miss")
        #expect(second.text == "call 2")
        #expect(upstream.calls("/items/a") == 2)
        await gateway.stop()
        await upstream.stop()
    }

    @Test func get_MapsCatchAllAndQuery_ToTheUpstream() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/v2/users/new%20user/posts") { request, _ in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60"], body: String(request.target))
        }
        let api = RepositorySettings(
            route: "/api/{path...}", service: "up", upstreamPath: "/v2/{path...}",
            cacheKey: CacheKeySettings(query: .only(["page", "sort"])))
        let gateway = try await EndToEndGateway.start(
            services: ["up": ServiceSettings(baseURL: upstream.baseURL)], repositories: ["api": api])
        let answer = try await gateway.get("/api/users/new%20user/posts?sort=new&utm=x&page=2")
        #expect(answer.text == "/v2/users/new%20user/posts?page=2&sort=new")
        let same = try await gateway.get("/api/users/new%20user/posts?page=2&sort=new&utm=y")
        #expect(same.headers["X-Cache"] == "HIT")
        let traversal = try await gateway.get("/api/users/../admin")
        #expect(traversal.status == 400)
        #expect(traversal.json["code"] as? String == "path_traversal")
        await gateway.stop()
        await upstream.stop()
    }
}
