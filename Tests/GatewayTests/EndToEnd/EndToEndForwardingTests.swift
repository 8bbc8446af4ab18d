import Foundation
import Gateway
import HTTP1
import Testing

/// Which request fields go upstream and which of them key the cache (issue 9, RFC 9111 §4.1, §4.4).
struct EndToEndForwardingTests {
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

    /// `forwardHeaders: "*"`: every end-to-end request field goes upstream (credentials only when
    /// listed) without keying the cache; an answer varying (RFC 9111 §4.1) on such a field is not
    /// stored, so it is never served to a request whose field differs.
    @Test func forwardAll_PassesFieldsWithoutKeying_RFC9111_4_1() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, call in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60"], body: "\(call)")
        }
        upstream.on("/items/v") { _, call in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60", "Vary": "X-Trace"], body: "\(call)")
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
        _ = try await gateway.get("/items/v", headers: ["X-Trace": "1"])
        let varied = try await gateway.get("/items/v", headers: ["X-Trace": "2"])
        #expect(varied.text == "2")
        await gateway.stop()
        await upstream.stop()
    }
}
