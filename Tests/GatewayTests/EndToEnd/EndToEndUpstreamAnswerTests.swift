import Foundation
import Gateway
import HTTP1
import Testing

/// Issue 9: any response the upstream actually sent is an answer; Problem Details only for what
/// the gateway itself decides or fails at.
struct EndToEndUpstreamAnswerTests {
    /// RFC 9111 §4.2.2: 404 and 410 are heuristically cacheable; without explicit freshness the
    /// repository's `defaultTTL` applies.
    @Test(arguments: [404, 410])
    func get_PassesNotFoundAndGoneThrough_AndStoresThem(_ status: Int) async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, _ in
            EndToEndUpstream.Reply(status: status, headers: ["Content-Type": "text/plain", "X-Why": "gone"], body: "no")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { $0.defaultTTL = 30 }
        let miss = try await gateway.get("/items/a")
        #expect(miss.status == status)
        #expect(miss.text == "no")
        #expect(miss.headers["X-Why"] == "gone")
        #expect(miss.headers["Cache-Status"] == "rds-gateway; fwd=miss; stored; ttl=30")
        gateway.clock.advance(by: 10)
        let hit = try await gateway.get("/items/a")
        #expect(hit.status == status)
        #expect(hit.headers["X-Cache"] == "HIT")
        #expect(upstream.calls("/items/a") == 1)
    }

    /// An upstream 4xx is the client's answer, body and fields included, on reads and on writes;
    /// not cacheable by default (RFC 9111 §4.2.2), so it is not stored.
    @Test func upstream4xx_PassesThrough_OnReadsAndWrites() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/u") { request, _ in
            request.method == .get
                ? EndToEndUpstream.Reply(status: 429, headers: ["Retry-After": "7"], body: "slow down")
                : EndToEndUpstream.Reply(status: 422, body: #"{"errors":{"email":"taken"}}"#)
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { $0.methods = ["GET", "POST"] }
        let limited = try await gateway.get("/items/u")
        #expect(limited.status == 429)
        #expect(limited.headers["Retry-After"] == "7")
        #expect(limited.text == "slow down")
        #expect(try await gateway.get("/items/u").status == 429)
        #expect(upstream.calls("/items/u") == 2)
        let invalid = try await gateway.send(.post, "/items/u", body: #"{"email":"a@b"}"#)
        #expect(invalid.status == 422)
        #expect(invalid.text == #"{"errors":{"email":"taken"}}"#)
        #expect(invalid.headers["Cache-Status"] == "rds-gateway; fwd=request; fwd-status=422")
    }

    /// `upstreamErrors: "problem"` (default): a 5xx becomes Problem Details whose innermost link
    /// carries the upstream's status and a bounded excerpt of its body.
    @Test func upstream5xx_Problem_QuotesStatusAndBodyInInnermostLink() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, _ in EndToEndUpstream.Reply(status: 503, body: "maintenance") }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        let answer = try await gateway.get("/items/a")
        #expect(answer.status == 502)
        var innermost: [String: Any]?
        var link = answer.json["inner"] as? [String: Any]
        while let current = link {
            innermost = current
            link = current["inner"] as? [String: Any]
        }
        #expect(innermost?["code"] as? String == "upstream_reply")
        let details = innermost?["details"] as? [String: Any]
        #expect(details?["status"] as? String == "503")
        #expect(details?["body"] as? String == "maintenance")
    }

    /// `upstreamErrors: "passthrough"`: the upstream's 5xx answer goes to the client as it came.
    @Test func upstream5xx_Passthrough_SendsTheUpstreamsAnswer() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { request, _ in
            EndToEndUpstream.Reply(status: 503, headers: ["Retry-After": "30"], body: "maintenance")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) {
            $0.upstreamErrors = .passthrough
            $0.methods = ["GET", "PUT"]
        }
        let read = try await gateway.get("/items/a")
        #expect(read.status == 503)
        #expect(read.headers["Retry-After"] == "30")
        #expect(read.text == "maintenance")
        #expect(read.headers["Cache-Status"] == "rds-gateway; fwd=miss; fwd-status=503")
        let write = try await gateway.send(.put, "/items/a", body: "x")
        #expect(write.status == 503)
        #expect(write.text == "maintenance")
    }

    /// RFC 9111 §4.4: a successful write invalidates the same-origin `Location` target too.
    @Test func write_InvalidatesItsLocationTarget() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/b") { _, call in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60"], body: "b\(call)")
        }
        upstream.on("/items/new") { _, _ in
            EndToEndUpstream.Reply(status: 201, headers: ["Location": "/items/b"], body: "{}")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { $0.methods = ["GET", "POST"] }
        #expect(try await gateway.get("/items/b").text == "b1")
        #expect(try await gateway.get("/items/b").headers["X-Cache"] == "HIT")
        #expect(try await gateway.send(.post, "/items/new", body: "{}").status == 201)
        let after = try await gateway.get("/items/b")
        #expect(after.headers["X-Cache"] == "MISS")
        #expect(after.text == "b2")
    }
}
