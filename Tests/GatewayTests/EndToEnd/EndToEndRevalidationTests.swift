import Foundation
import Gateway
import HTTP1
import Testing

/// RFC 9111 §4.3.4: a 304 to the gateway's revalidation updates the stored header fields.
struct EndToEndRevalidationTests {
    /// The 304's fields replace the stored ones (`X-Rate`, `ETag`), the others stay (`Link`,
    /// `Cache-Control`), the body stays; the lifetime comes from the updated fields, so a 304
    /// without `Cache-Control` keeps the stored `max-age` instead of falling back to `defaultTTL`.
    @Test func notModified_UpdatesStoredFields_RFC9111_4_3_4() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, call in
            call == 1
                ? EndToEndUpstream.Reply(
                    headers: [
                        "Content-Type": "application/json", "Cache-Control": "max-age=60", "ETag": "\"v1\"",
                        "Link": "</items?page=2>; rel=\"next\"", "X-Rate": "old",
                    ],
                    body: "[1]")
                : EndToEndUpstream.Reply(status: 304, headers: ["ETag": "\"v1\"", "X-Rate": "new"])
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { $0.defaultTTL = 0 }
        _ = try await gateway.get("/items/a")
        gateway.clock.advance(by: 61)
        let revalidated = try await gateway.get("/items/a")
        gateway.clock.advance(by: 30)
        let hit = try await gateway.get("/items/a")
        #expect(revalidated.headers["X-Cache"] == "REVALIDATED")
        #expect(hit.headers["X-Cache"] == "HIT")
        for response in [revalidated, hit] {
            #expect(response.headers["X-Rate"] == "new")
            #expect(response.headers["Link"] == "</items?page=2>; rel=\"next\"")
            #expect(response.headers["Cache-Control"] == "max-age=60")
            #expect(response.text == "[1]")
        }
        #expect(upstream.calls("/items/a") == 2)
        await gateway.stop()
        await upstream.stop()
    }
}
