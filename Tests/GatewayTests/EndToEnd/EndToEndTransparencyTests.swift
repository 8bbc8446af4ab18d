import Foundation
import Gateway
import HTTP1
import Testing

/// Issue 9: a cached answer is the upstream's answer (RFC 9111 §3, §4; RFC 9110 §7.6.1).
struct EndToEndTransparencyTests {
    static let api: HTTPHeaders = [
        "Content-Type": "application/json", "Link": "</items?page=2>; rel=\"next\"", "X-Total-Count": "42",
        "Cache-Control": "max-age=60", "Content-Disposition": "inline", "X-Custom": "b",
        "Expires": "Thu, 01 Jan 2099 00:00:00 GMT",
    ]

    /// RFC 9110 §7.6.1, RFC 9111 §3.1: every end-to-end field is stored and replayed in order;
    /// the upstream's `Cache-Control`, `Expires` and `Date` reach the client on a hit too.
    @Test func hit_ReplaysEveryEndToEndField_InOrder_WithOriginDate() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, _ in EndToEndUpstream.Reply(headers: Self.api, body: "[]") }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        let miss = try await gateway.get("/items/a")
        gateway.clock.advance(by: 10)
        let hit = try await gateway.get("/items/a")
        #expect(hit.headers["X-Cache"] == "HIT")
        let names = Set(Self.api.fields.map { $0.name.lowercased() })
        for response in [miss, hit] {
            let kept = response.headers.fields.filter { names.contains($0.name.lowercased()) }
            #expect(kept.map(\.name) == Self.api.fields.map(\.name))
            #expect(kept.map(\.value) == Self.api.fields.map(\.value))
        }
        #expect(hit.headers["Date"] == miss.headers["Date"])
        #expect(hit.headers["Age"] == "10")
        #expect(upstream.calls("/items/a") == 1)
    }

    /// RFC 9111 §4.2.3: `Age` is the upstream's `Age` plus the time the answer spent here.
    @Test func hit_Age_AddsResidentTimeToUpstreamAge() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, _ in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60", "Age": "30"], body: "a")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        _ = try await gateway.get("/items/a")
        gateway.clock.advance(by: 10)
        let hit = try await gateway.get("/items/a")
        #expect(hit.headers["Age"] == "40")
        #expect(hit.headers["Cache-Status"] == "rds-gateway; hit; ttl=20")
        #expect(hit.headers.values(for: "Age").count == 1)
    }

    /// The clamps govern only the gateway's storage: the client still sees the origin's
    /// `Cache-Control`, while `Cache-Status` (RFC 9211) states the gateway's own `ttl`.
    @Test func clamps_GovernStorageOnly_NotDownstreamCacheControl() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, _ in EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=10"], body: "a") }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { $0.minTTL = 120 }
        let miss = try await gateway.get("/items/a")
        #expect(miss.headers["Cache-Control"] == "max-age=10")
        #expect(miss.headers["Cache-Status"] == "rds-gateway; fwd=miss; stored; ttl=120")
        gateway.clock.advance(by: 60)
        let hit = try await gateway.get("/items/a")
        #expect(hit.headers["X-Cache"] == "HIT")
        #expect(hit.headers["Cache-Control"] == "max-age=10")
    }

    /// `downstreamCacheControl` replaces the `Cache-Control` the client sees (opt-in per repository).
    @Test func downstreamCacheControl_ReplacesTheOriginsField() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, _ in EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60"], body: "a") }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) {
            $0.downstreamCacheControl = "public, max-age=5"
        }
        let miss = try await gateway.get("/items/a")
        let hit = try await gateway.get("/items/a")
        #expect(miss.headers["Cache-Control"] == "public, max-age=5")
        #expect(hit.headers["Cache-Control"] == "public, max-age=5")
        #expect(hit.headers["Cache-Status"] == "rds-gateway; hit; ttl=60")
    }

    /// `Set-Cookie` passes through on an answer not served from cache (a miss that is not stored,
    /// a write) and is never stored.
    @Test func setCookie_PassesThroughOnMissesAndWrites_NeverStored() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/login") { _, _ in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60", "Set-Cookie": "id=1"], body: "ok")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { $0.methods = ["GET", "POST"] }
        let first = try await gateway.get("/items/login")
        let second = try await gateway.get("/items/login")
        #expect(first.headers["Set-Cookie"] == "id=1")
        #expect(second.headers["Set-Cookie"] == "id=1")
        #expect(second.headers["X-Cache"] == "BYPASS")
        #expect(upstream.calls("/items/login") == 2)
        let write = try await gateway.send(.post, "/items/login", body: "{}")
        #expect(write.headers["Set-Cookie"] == "id=1")
    }

    /// RFC 9213: the targeted field (configurable per repository) governs this cache over
    /// `Cache-Control` and is removed before the answer goes on.
    @Test(arguments: ["CDN-Cache-Control", "Surrogate-Control"])
    func targetedField_GovernsThisCache_AndIsNotPassedOn(_ field: String) async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, _ in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "no-cache", field: "max-age=60"], body: "a")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { $0.targetedCacheControl = field }
        let miss = try await gateway.get("/items/a")
        gateway.clock.advance(by: 5)
        let hit = try await gateway.get("/items/a")
        #expect(hit.headers["Cache-Status"] == "rds-gateway; hit; ttl=55")
        for response in [miss, hit] {
            #expect(response.headers[field] == nil)
            #expect(response.headers["Cache-Control"] == "no-cache")
        }
        #expect(upstream.calls("/items/a") == 1)
    }

    /// RFC 9111 §4.2.2: with `heuristicFraction`, an answer with only `Last-Modified` lives that
    /// fraction of its age, and `Cache-Status` says the lifetime is heuristic.
    @Test func heuristicFraction_DerivesLifetimeFromLastModified() async throws {
        let upstream = try await EndToEndUpstream.start()
        let now = Date()
        let headers: HTTPHeaders = ["Date": HTTPDate.text(now), "Last-Modified": HTTPDate.text(now - 1_000)]
        upstream.on("/items/a") { _, _ in EndToEndUpstream.Reply(headers: headers, body: "a") }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { $0.heuristicFraction = 0.1 }
        let miss = try await gateway.get("/items/a")
        #expect(miss.headers["Cache-Status"] == "rds-gateway; fwd=miss; stored; ttl=100; detail=heuristic")
        gateway.clock.advance(by: 10)
        let hit = try await gateway.get("/items/a")
        #expect(hit.headers["Cache-Status"] == "rds-gateway; hit; ttl=90; detail=heuristic")
    }
}
