import Foundation
import HTTP1
import Testing

@testable import Gateway

/// OAuth2 end to end when something goes wrong: a 401 from the upstream, a token endpoint that is
/// down or refuses the client, a rotated client secret.
@Suite(.timeLimit(.minutes(1)))
struct EndToEndOAuth2FailureTests {
    @Test func upstream401_DropsTheToken_RefreshesOnceForAll_AndRetriesEachRequestOnce() async throws {
        let fixture = try await OAuth2Gateway.start()
        defer { Task { await fixture.stop() } }
        await fixture.tokenRequestsEnded(1)
        #expect(try await fixture.gateway.get("/items/1").status == 200)

        fixture.endpoint.revokeAll()
        #expect(try await fixture.concurrentGets(from: 2, count: 20) == Array(repeating: 200, count: 20))
        #expect(fixture.endpoint.requestCount == 2)
        var retried = 0
        for id in 2...21 {
            let sent = fixture.tokensSent(to: "/items/\(id)")
            #expect(sent.last == "Bearer tok-2")
            #expect(sent == ["Bearer tok-2"] || sent == ["Bearer tok-1", "Bearer tok-2"])
            retried += sent.count - 1
        }
        #expect(retried > 0)
        let counted = try await fixture.metric("rds_gateway_upstream_auth_retries_total", [#"service="up""#])
        #expect(counted == Double(retried))
    }

    @Test func upstream401_OnAWrite_IsRetriedOnceWithTheSameBody() async throws {
        let fixture = try await OAuth2Gateway.start()
        defer { Task { await fixture.stop() } }
        await fixture.tokenRequestsEnded(1)
        fixture.endpoint.revokeAll()
        let response = try await fixture.gateway.send(
            .put, "/items/w", headers: ["Content-Type": "application/json", "Idempotency-Key": "k-1"],
            body: #"{"name":"w"}"#)
        #expect(response.status == 200)
        let requests = fixture.upstream.requests("/items/w")
        #expect(requests.map(\.method) == [.put, .put])
        #expect(requests.map { String(decoding: $0.body, as: UTF8.self) } == [#"{"name":"w"}"#, #"{"name":"w"}"#])
        #expect(fixture.tokensSent(to: "/items/w") == ["Bearer tok-1", "Bearer tok-2"])
    }

    @Test func secondUpstream401_IsTheUpstreamsAnswer() async throws {
        let fixture = try await OAuth2Gateway.start()
        defer { Task { await fixture.stop() } }
        await fixture.tokenRequestsEnded(1)
        fixture.upstream.on("/items/7") { _, _ in EndToEndUpstream.Reply(status: 401, body: "") }
        let response = try await fixture.gateway.get("/items/7")
        #expect(response.status == 401)
        #expect(response.text.isEmpty, "the upstream's own answer, passed through")
        #expect(fixture.upstream.calls("/items/7") == 2)
        #expect(fixture.endpoint.requestCount == 2)
    }

    @Test func tokenEndpointDown_FailsWithAChain_ServesStaleIfError_ThenRecovers() async throws {
        let fixture = try await OAuth2Gateway.start(
            cacheControl: "max-age=10", repository: { $0.staleIfError = 1_000 })
        defer { Task { await fixture.stop() } }
        await fixture.tokenRequestsEnded(1)
        #expect(try await fixture.gateway.get("/items/1").status == 200)

        await fixture.endpoint.stop()
        fixture.clock.advance(by: 101)  // the token has expired, and the refresh cannot reach the endpoint
        let stale = try await fixture.gateway.get("/items/1")
        #expect(stale.status == 200)
        #expect(stale.headers["X-Resource-State"] == "failed")
        #expect(stale.headers["X-Resource-Error"] == "upstream_auth_failed")
        let missing = try await fixture.gateway.get("/items/2")
        #expect(missing.status == 503)
        let problem = try JSONSerialization.jsonObject(with: Data(missing.text.utf8)) as? [String: Any] ?? [:]
        #expect(problem["code"] as? String == "upstream_auth_failed")
        #expect(missing.text.contains("transport_refused"))
        let health = try await fixture.upstreamReadiness()
        #expect(health["auth"] as? String == "failing")
        #expect(health["auth_error"] as? String == "transport_refused")
        #expect(try await fixture.readiness()["ready"] as? Bool == true)

        try await fixture.endpoint.restart()
        fixture.clock.advance(by: 60)
        #expect(try await fixture.gateway.get("/items/2").status == 200)
        #expect(try await fixture.upstreamReadiness()["auth"] as? String == "ok")
        #expect(
            try await fixture.metric("rds_gateway_upstream_token_requests_total", [#"result="unreachable""#]) ?? 0 > 0)
    }

    @Test func wrongClientSecret_AnswersUpstreamAuthFailed_WrappingInvalidClient() async throws {
        let fixture = try await OAuth2Gateway.start(fileSecret: "wrong-secret-77", endpointSecret: "right-secret-88")
        defer { Task { await fixture.stop() } }
        await fixture.tokenRequestsEnded(1)
        let health = try await fixture.upstreamReadiness()
        #expect(health["auth"] as? String == "failing")
        #expect(health["auth_error"] as? String == "invalid_client")
        #expect(try await fixture.readiness()["ready"] as? Bool == true)

        let response = try await fixture.gateway.get("/items/1")
        #expect(response.status == 503)
        let problem = try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any] ?? [:]
        #expect(problem["code"] as? String == "upstream_auth_failed")
        #expect(problem["title"] as? String == "Upstream authentication failed")
        #expect(response.text.contains(#""code":"invalid_client""#))
        #expect(response.text.contains("Client authentication failed"))
        #expect(!response.text.contains("wrong-secret-77"))
        #expect(fixture.upstream.calls("/items/1") == 0)
        #expect(try await fixture.metric("rds_gateway_upstream_token_requests_total", [#"result="refused""#]) == 1)
    }

    @Test func rotatedClientSecretFile_IsReadForTheNextTokenRequest() async throws {
        let fixture = try await OAuth2Gateway.start(fileSecret: "secret-one", endpointSecret: "secret-one")
        defer { Task { await fixture.stop() } }
        await fixture.tokenRequestsEnded(1)
        #expect(try await fixture.gateway.get("/items/1").status == 200)

        fixture.endpoint.setClientSecret("secret-two")
        fixture.endpoint.revokeAll()
        try Data("secret-two\n".utf8).write(to: fixture.secretFile)
        #expect(try await fixture.gateway.get("/items/2").status == 200)
        let second = try #require(fixture.endpoint.requests.last)
        #expect(OAuth2TokenEndpoint.basicCredentials(second.headers["Authorization"])?.1 == "secret-two")
        #expect(fixture.tokensSent(to: "/items/2") == ["Bearer tok-1", "Bearer tok-2"])
    }
}
