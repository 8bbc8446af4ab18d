import Foundation
import Gateway
import HTTP1
import Testing

/// RFC 9111 §5.2.1 request directives, RFC 9110 §13.2.2 preconditions and §14 ranges, on the read path.
struct EndToEndRequestDirectivesTests {
    /// An upstream whose `/items/a` answers `v<call>` with `max-age=60` and an ETag.
    static func start(
        _ settings: @escaping (inout RepositorySettings) -> Void = { _ in }
    ) async throws -> (EndToEndUpstream, EndToEndGateway) {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, call in
            EndToEndUpstream.Reply(
                headers: [
                    "Content-Type": "text/plain", "Cache-Control": "max-age=60", "ETag": "\"v\(call)\"",
                    "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT",
                ],
                body: "0123456789v\(call)")
        }
        return (upstream, try await EndToEndGateway.start(upstream: upstream.baseURL, settings: settings))
    }

    /// §5.2.1.1 max-age and §5.2.1.3 min-fresh force a trip upstream; §5.2.1.2 max-stale serves stale.
    @Test func maxAge_MinFresh_MaxStale() async throws {
        let (upstream, gateway) = try await Self.start()
        _ = try await gateway.get("/items/a")
        gateway.clock.advance(by: 20)
        let young = try await gateway.get("/items/a", headers: ["Cache-Control": "max-age=30"])
        #expect(young.headers["X-Cache"] == "HIT")
        let old = try await gateway.get("/items/a", headers: ["Cache-Control": "max-age=10"])
        #expect(old.headers["Cache-Status"]?.contains("fwd=request") == true)
        #expect(upstream.calls("/items/a") == 2)
        let needsFresh = try await gateway.get("/items/a", headers: ["Cache-Control": "min-fresh=3600"])
        #expect(needsFresh.headers["Cache-Status"]?.contains("fwd=request") == true)
        #expect(upstream.calls("/items/a") == 3)
        gateway.clock.advance(by: 90)
        let stale = try await gateway.get("/items/a", headers: ["Cache-Control": "max-stale=60"])
        #expect(stale.headers["X-Cache"] == "STALE")
        #expect(stale.headers["Age"] == "90")
        #expect(upstream.calls("/items/a") == 3)
    }

    /// §5.2.1.4 no-cache and §5.4 `Pragma: no-cache` revalidate; §5.2.1.7 only-if-cached gives 504
    /// when nothing usable is stored, the stored response otherwise.
    @Test func noCache_Pragma_OnlyIfCached() async throws {
        let (upstream, gateway) = try await Self.start()
        let missing = try await gateway.get("/items/a", headers: ["Cache-Control": "only-if-cached"])
        #expect(missing.status == 504)
        #expect(missing.json["code"] as? String == "not_cached")
        #expect(upstream.calls("/items/a") == 0)
        _ = try await gateway.get("/items/a")
        let cached = try await gateway.get("/items/a", headers: ["Cache-Control": "only-if-cached"])
        #expect(cached.status == 200)
        _ = try await gateway.get("/items/a", headers: ["Pragma": "no-cache"])
        #expect(upstream.requests("/items/a").last?.headers["If-None-Match"] == "\"v1\"")
        _ = try await gateway.get("/items/a", headers: ["Cache-Control": "no-cache"])
        #expect(upstream.calls("/items/a") == 3)
    }

    /// §5.2.1.5 no-store: fetched without being stored.
    @Test func noStore_FetchesWithoutStoring() async throws {
        let (upstream, gateway) = try await Self.start()
        let first = try await gateway.get("/items/a", headers: ["Cache-Control": "no-store"])
        #expect(first.text == "0123456789v1")
        let second = try await gateway.get("/items/a")
        #expect(second.headers["X-Cache"] == "MISS")
        #expect(upstream.calls("/items/a") == 2)
    }

    /// RFC 9110 §13.2.2 against the stored response: 412 for a failing If-Match, 304 for a weak
    /// If-None-Match match, If-Modified-Since ignored beside If-None-Match.
    @Test func preconditions_AgainstTheStoredResponse() async throws {
        let (_, gateway) = try await Self.start()
        _ = try await gateway.get("/items/a")
        #expect(try await gateway.get("/items/a", headers: ["If-Match": "\"v9\""]).status == 412)
        #expect(try await gateway.get("/items/a", headers: ["If-None-Match": "W/\"v1\""]).status == 304)
        let both: HTTPHeaders = ["If-None-Match": "\"v9\"", "If-Modified-Since": "Mon, 07 Nov 1994 08:49:37 GMT"]
        #expect(try await gateway.get("/items/a", headers: both).status == 200)
    }

    /// RFC 9110 §14: a single range gives 206 with Content-Range, If-Range that does not match and
    /// multiple ranges give the whole 200, an unsatisfiable range 416.
    @Test func ranges_OnTheStoredResponse() async throws {
        let (_, gateway) = try await Self.start()
        _ = try await gateway.get("/items/a")
        let part = try await gateway.get("/items/a", headers: ["Range": "bytes=2-5"])
        #expect(part.status == 206)
        #expect(part.text == "2345")
        #expect(part.headers["Content-Range"] == "bytes 2-5/12")
        let changed = try await gateway.get("/items/a", headers: ["Range": "bytes=2-5", "If-Range": "\"v0\""])
        #expect(changed.status == 200)
        #expect(try await gateway.get("/items/a", headers: ["Range": "bytes=0-1,4-5"]).status == 200)
        let beyond = try await gateway.get("/items/a", headers: ["Range": "bytes=50-"])
        #expect(beyond.status == 416)
        #expect(beyond.headers["Content-Range"] == "bytes */12")
    }
}
