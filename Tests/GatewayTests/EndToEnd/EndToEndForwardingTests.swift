import Foundation
import Gateway
import HTTP1
import Testing

/// Which request fields go upstream and which of them key the cache (issue 9, RFC 9111 §4.1, §4.4).
struct EndToEndForwardingTests {
    /// An upstream whose `/items/v` varies on `X-Trace` (body `<trace or none>#<call>`, fresh for a
    /// minute) behind a gateway forwarding every field.
    private static func startVaryingOnXTrace() async throws -> (EndToEndUpstream, EndToEndGateway) {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/v") { request, call in
            EndToEndUpstream.Reply(
                headers: ["Cache-Control": "max-age=60", "Vary": "X-Trace"],
                body: "\(request.headers["X-Trace"] ?? "none")#\(call)")
        }
        return (upstream, try await EndToEndGateway.start(upstream: upstream.baseURL) { $0.forwardHeaders = ["*"] })
    }

    /// RFC 9111 §4.4: a write's `Content-Type` (forwarded) no longer keys the cache, so the write's
    /// answer lands under the key a `GET` uses and the `GET`'s old entry is replaced.
    @Test func write_StoresUnderTheReadKey_WhenContentTypeIsForwarded_RFC9111_4_4() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { request, _ in
            EndToEndUpstream.Reply(
                headers: ["Cache-Control": "max-age=60"], body: request.method == .put ? "written" : "old")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.methods = ["GET", "PUT"]
            settings.forwardHeaders = ["Content-Type"]
        }
        #expect(try await gateway.get("/items/a").text == "old")
        let written = try await gateway.send(.put, "/items/a", headers: ["Content-Type": "text/plain"], body: "new")
        #expect(written.status == 200)
        #expect(upstream.requests("/items/a").last?.headers["Content-Type"] == "text/plain")
        let read = try await gateway.get("/items/a")
        #expect(read.text == "written")
        #expect(read.headers["X-Cache"] == "HIT")
        await gateway.stop()
        await upstream.stop()
    }

    /// `forwardHeaders: "*"` passes the client's fields upstream, but the request id that goes
    /// with them is the gateway's: an invalid `X-Request-ID` is replaced, as in the answer.
    @Test func forwardAll_SendsTheGatewaysRequestID_NotAnInvalidOneOfTheClient() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/p") { _, call in EndToEndUpstream.Reply(headers: ["Cache-Control": "no-store"], body: "\(call)") }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { $0.forwardHeaders = ["*"] }
        let answer = try await gateway.get("/items/p", headers: ["X-Request-ID": "not a valid id"])
        let sent = try #require(upstream.requests("/items/p").first)
        #expect(answer.headers["X-Request-ID"]?.count == 32)
        #expect(sent.headers["X-Request-ID"] == answer.headers["X-Request-ID"])
        let valid = try await gateway.get("/items/p", headers: ["X-Request-ID": "trace-9"])
        #expect(valid.headers["X-Request-ID"] == "trace-9")
        #expect(upstream.requests("/items/p").last?.headers["X-Request-ID"] == "trace-9")
        await gateway.stop()
        await upstream.stop()
    }

    /// `forwardHeaders: "*"`: every end-to-end request field goes upstream (credentials only when
    /// listed) without keying the cache.
    @Test func forwardAll_PassesFieldsWithoutKeying() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, call in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60"], body: "\(call)")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.forwardHeaders = ["*"]
        }
        let first = try await gateway.get("/items/a", headers: ["X-Trace": "1", "Cookie": "id=secret"])
        let second = try await gateway.get("/items/a", headers: ["X-Trace": "2"])
        #expect(first.text == "1")
        #expect(second.text == "1")
        #expect(second.headers["X-Cache"] == "HIT")
        let sent = try #require(upstream.requests("/items/a").first)
        #expect(sent.headers["X-Trace"] == "1")
        #expect(sent.headers["Cookie"] == nil)
        await gateway.stop()
        await upstream.stop()
    }

    /// RFC 9111 §4.1 under `"*"`: an answer varying on a passed field is not stored under the
    /// primary key; the field becomes a secondary key, each variant is stored apart and served
    /// only to requests with the same value (whitespace normalised); a request without the field
    /// is a variant of its own.
    @Test func forwardAll_VaryOnPassedField_StoresEachVariantApart_RFC9111_4_1() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/v") { request, call in
            EndToEndUpstream.Reply(
                headers: ["Cache-Control": "max-age=60", "Vary": "x-trace"],
                body: "\(request.headers["X-Trace"] ?? "none")#\(call)")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.forwardHeaders = ["*"]
        }
        // The first answer teaches the gateway the field; the request is fetched again under its variant key.
        let one = try await gateway.get("/items/v", headers: ["X-Trace": "a, b"])
        #expect(one.text == "a, b#2")
        let two = try await gateway.get("/items/v", headers: ["X-Trace": "c"])
        #expect(two.text == "c#3")
        #expect(two.headers["X-Cache"] == "MISS")
        let oneAgain = try await gateway.get("/items/v", headers: ["X-Trace": "a ,b"])
        #expect(oneAgain.text == "a, b#2")
        #expect(oneAgain.headers["X-Cache"] == "HIT")
        #expect(try await gateway.get("/items/v", headers: ["X-Trace": "c"]).text == "c#3")
        let none = try await gateway.get("/items/v")
        #expect(none.text == "none#4")
        #expect(try await gateway.get("/items/v").headers["X-Cache"] == "HIT")
        #expect(upstream.calls("/items/v") == 4)
        await gateway.stop()
        await upstream.stop()
    }

    /// RFC 9111 §4.1: a variant stored for a request without the field (under the primary key,
    /// before the gateway knew the resource varies) is never served to a request with the field,
    /// neither on the event-loop fast path nor on the task path (`max-stale`).
    @Test func forwardAll_StoredVariantWithoutTheField_IsNotServedToARequestWithIt_RFC9111_4_1() async throws {
        let (upstream, gateway) = try await Self.startVaryingOnXTrace()
        #expect(try await gateway.get("/items/v").text == "none#1")
        #expect(try await gateway.get("/items/v", headers: ["X-Trace": "a"]).text == "a#2")
        #expect(try await gateway.get("/items/v", headers: ["X-Trace": "a"]).headers["X-Cache"] == "HIT")
        let directed = try await gateway.get("/items/v", headers: ["X-Trace": "b", "Cache-Control": "max-stale"])
        #expect(directed.text == "b#3")
        #expect(try await gateway.get("/items/v").text == "none#1")
        await gateway.stop()
        await upstream.stop()
    }

    /// RFC 9111 §4.4: a successful write invalidates every stored variant of its target, not only
    /// the one its own request fields select, and every variant of its `Location` target.
    @Test func write_InvalidatesEveryVariant_OfTargetAndLocation_RFC9111_4_4() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/v") { request, call in
            EndToEndUpstream.Reply(
                status: request.method == .delete ? 204 : 200,
                headers: ["Cache-Control": "max-age=60", "Vary": "X-Trace"], body: "#\(call)")
        }
        upstream.on("/items/new") { _, _ in
            EndToEndUpstream.Reply(status: 201, headers: ["Location": "/items/v"], body: "{}")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.forwardHeaders = ["*"]
            settings.methods = ["GET", "POST", "DELETE"]
        }
        let cache = { (trace: String) in
            try await gateway.get("/items/v", headers: ["X-Trace": trace]).headers["X-Cache"]
        }
        _ = try await cache("a")
        _ = try await cache("b")
        #expect(try await cache("b") == "HIT")
        #expect(try await gateway.send(.delete, "/items/v", headers: ["X-Trace": "a"]).status == 204)
        #expect(try await cache("b") == "MISS")
        #expect(try await cache("a") == "MISS")
        #expect(try await cache("a") == "HIT")
        #expect(try await gateway.send(.post, "/items/new", body: "{}").status == 201)
        #expect(try await cache("a") == "MISS")
        #expect(try await cache("b") == "MISS")
        await gateway.stop()
        await upstream.stop()
    }

    /// An admin purge by `?path=` drops every variant of the resource, not only the unkeyed one.
    @Test func adminPurgeByPath_DropsEveryVariant() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/v") { _, call in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60", "Vary": "X-Trace"], body: "#\(call)")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { $0.forwardHeaders = ["*"] }
        _ = try await gateway.get("/items/v", headers: ["X-Trace": "a"])
        _ = try await gateway.get("/items/v", headers: ["X-Trace": "b"])
        #expect(try await gateway.get("/items/v", headers: ["X-Trace": "a"]).headers["X-Cache"] == "HIT")
        let purged = try await gateway.send(.delete, "/admin/repositories/items/cache?path=/items/v")
        #expect(purged.status == 200)
        #expect(try await gateway.get("/items/v", headers: ["X-Trace": "a"]).headers["X-Cache"] == "MISS")
        #expect(try await gateway.get("/items/v", headers: ["X-Trace": "b"]).headers["X-Cache"] == "MISS")
        await gateway.stop()
        await upstream.stop()
    }

    /// Admin `state` and `refresh` by `?path=` address the resource with all its variants: the state
    /// lists each variant (credentials hidden) and a refresh fetches every variant again with its
    /// own request fields.
    @Test func adminStateAndRefreshByPath_AddressEveryVariant() async throws {
        let (upstream, gateway) = try await Self.startVaryingOnXTrace()
        #expect(try await gateway.get("/items/v", headers: ["X-Trace": "a"]).text == "a#2")
        #expect(try await gateway.get("/items/v", headers: ["X-Trace": "b"]).text == "b#3")

        let state = try await gateway.get("/admin/repositories/items/state?path=/items/v")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(state.text.utf8)) as? [String: Any])
        let variants = try #require(object["variants"] as? [[String: Any]])
        #expect(variants.map { ($0["fields"] as? [String: String])?["x-trace"] } == ["a", "b"])
        #expect(variants.map { $0["state"] as? String } == ["loaded", "loaded"])

        let refreshed = try await gateway.send(.post, "/admin/repositories/items/refresh?path=/items/v")
        #expect(refreshed.headers["X-Refreshed-Variants"] == "2")
        let traces = upstream.requests("/items/v").dropFirst(3).map { $0.headers["X-Trace"] ?? "none" }
        #expect(traces.sorted() == ["a", "b", "none"])
        #expect(try await gateway.get("/items/v", headers: ["X-Trace": "a"]).text.hasPrefix("a#"))
        #expect(try await gateway.get("/items/v", headers: ["X-Trace": "a"]).text != "a#2")
        #expect(try await gateway.get("/items/v", headers: ["X-Trace": "b"]).headers["X-Cache"] == "HIT")
        await gateway.stop()
        await upstream.stop()
    }

    /// RFC 9111 §4.4 with keyed request fields (`cacheKey.headers`): a write drops the variants
    /// other requests' fields selected too.
    @Test func write_InvalidatesKeyedVariants_RFC9111_4_4() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { request, call in
            EndToEndUpstream.Reply(
                headers: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"],
                body: request.method == .put ? "" : "\(request.headers["Accept-Language"] ?? "-")#\(call)")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.methods = ["GET", "PUT"]
            settings.cacheKey.headers = ["Accept-Language"]
        }
        #expect(try await gateway.get("/items/a", headers: ["Accept-Language": "en"]).text == "en#1")
        #expect(try await gateway.get("/items/a", headers: ["Accept-Language": "fr"]).text == "fr#2")
        #expect(try await gateway.get("/items/a", headers: ["Accept-Language": "fr"]).headers["X-Cache"] == "HIT")
        _ = try await gateway.send(.put, "/items/a", headers: ["Accept-Language": "en"], body: "x")
        #expect(try await gateway.get("/items/a", headers: ["Accept-Language": "fr"]).text == "fr#4")
        #expect(try await gateway.get("/items/a", headers: ["Accept-Language": "en"]).text == "en#5")
        await gateway.stop()
        await upstream.stop()
    }
}
