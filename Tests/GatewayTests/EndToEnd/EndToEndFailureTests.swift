import Foundation
import Gateway
import HTTP1
import Testing

struct EndToEndFailureTests {
    /// RFC 5861 §4: in either `upstreamErrors` mode, `stale-if-error` serves the stored value first.
    @Test(arguments: UpstreamErrorMode.allCases)
    func get_ServesStaleWithFailureHeaders_WhenUpstreamFailsWithinStaleIfError(_ mode: UpstreamErrorMode)
        async throws
    {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, call in
            call == 1
                ? EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60"], body: "cached")
                : EndToEndUpstream.Reply(status: 503, body: "down")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.staleIfError = 300
            settings.upstreamErrors = mode
        }
        _ = try await gateway.get("/items/a")
        gateway.clock.advance(by: 61)
        let stale = try await gateway.get("/items/a")
        #expect(stale.status == 200)
        #expect(stale.text == "cached")
        #expect(stale.headers["X-Cache"] == "STALE")
        #expect(stale.headers["X-Resource-State"] == "failed")
        #expect(stale.headers["X-Resource-Error"] == "upstream_bad_response")
        #expect(stale.headers["Cache-Status"] == "rds-gateway; fwd=stale; ttl=-1; detail=upstream_bad_response")
        #expect(stale.headers["Age"] == "61")
        gateway.clock.advance(by: 300)
        let tooOld = try await gateway.get("/items/a")
        if mode == .problem {
            #expect(tooOld.status == 502)
            #expect(tooOld.headers["Content-Type"] == "application/problem+json")
        } else {
            #expect(tooOld.status == 503)
            #expect(tooOld.text == "down")
        }
        await gateway.stop()
        await upstream.stop()
    }

    /// RFC 5861 per entry: the upstream's own `stale-if-error` (bounded by the repository's)
    /// decides how long a stale answer may stand in, not the repository's window alone.
    @Test func get_HonoursTheUpstreamsStaleIfError_BoundedByTheRepositorys_RFC5861() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, call in
            call == 1
                ? EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60, stale-if-error=10"], body: "cached")
                : EndToEndUpstream.Reply(status: 503, body: "down")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.staleIfError = 300
        }
        _ = try await gateway.get("/items/a")
        gateway.clock.advance(by: 65)
        #expect(try await gateway.get("/items/a").headers["X-Cache"] == "STALE")
        gateway.clock.advance(by: 10)
        #expect(try await gateway.get("/items/a").status == 502)
        await gateway.stop()
        await upstream.stop()
    }

    /// How an upstream fails, and what the client must see: the cause's code at the top, and the
    /// whole chain (outermost first, ending in `null`) in `inner`.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let status: Int
        let code: String
        let chain: [String]
        var testDescription: String { name }
    }

    @Test(arguments: [
        Case(
            name: "5xx", status: 502, code: "upstream_bad_response",
            chain: ["fetch_failed", "upstream_bad_response", "upstream_reply"]),
        Case(
            name: "timeout", status: 504, code: "upstream_timeout",
            chain: ["fetch_failed", "upstream_timeout", "transport_timeout"]),
        Case(
            name: "refused", status: 503, code: "upstream_unavailable",
            chain: ["fetch_failed", "upstream_unavailable", "transport_refused"]),
        Case(
            name: "malformed", status: 502, code: "upstream_bad_response",
            chain: ["fetch_failed", "upstream_bad_response", "transport_malformed_response"]),
    ])
    func get_AnswersProblemWithChain_WhenNothingIsCached(failure: Case) async throws {
        var upstreamURL: String
        var stopUpstream: @Sendable () async -> Void = {}
        switch failure.name {
        case "refused":
            let closed = try RefusingPort()
            upstreamURL = closed.baseURL
            stopUpstream = { withExtendedLifetime(closed) {} }
        case "malformed":
            let raw = try RawSocketUpstream(response: "HTTP/1.1 two hundred OK\r\n\r\n", closeAfterReply: true)
            upstreamURL = "http://127.0.0.1:\(raw.port)"
            stopUpstream = { raw.stop() }
        default:
            let upstream = try await EndToEndUpstream.start()
            upstream.on("/items/a") { _, _ in
                switch failure.name {
                case "5xx": EndToEndUpstream.Reply(status: 500, body: "boom")
                default: EndToEndUpstream.Reply(body: "late", delay: .seconds(5))
                }
            }
            upstreamURL = upstream.baseURL
            stopUpstream = { await upstream.stop() }
        }
        let timeouts =
            failure.name == "timeout" ? UpstreamTimeouts(connect: 2, firstByte: 0.2, total: 0.3) : UpstreamTimeouts()
        let gateway = try await EndToEndGateway.start(upstream: upstreamURL, timeouts: timeouts)
        let answer = try await gateway.get("/items/a")
        #expect(answer.status == failure.status)
        #expect(answer.headers["Content-Type"] == "application/problem+json")
        let problem = answer.json
        #expect(problem["status"] as? Int == failure.status)
        #expect(problem["instance"] as? String == "/items/a")
        #expect(problem["repository"] as? String == "items")
        #expect(problem["code"] as? String == failure.code)
        #expect(problem["type"] as? String == "https://rds-gateway.dev/errors/\(failure.code)")
        var codes: [String] = []
        var cause: [String: Any]?
        var inner = problem["inner"]
        while let link = inner as? [String: Any] {
            codes.append(link["code"] as? String ?? "")
            if link["code"] as? String == failure.code { cause = cause ?? link }
            inner = link["inner"]
        }
        #expect(codes == failure.chain)
        #expect(inner is NSNull)
        #expect(problem["detail"] as? String == cause?["message"] as? String)
        await gateway.stop()
        await stopUpstream()
    }
}
