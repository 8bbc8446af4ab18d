import Foundation
import HTTP1
import Testing

@testable import Gateway

/// OAuth2 client credentials end to end: a real token endpoint and a token-checking upstream on
/// loopback sockets, time moved by hand.
@Suite(.timeLimit(.minutes(1)))
struct EndToEndOAuth2RefreshTests {
    @Test func token_IsFetchedAtStartUp_WithBasicAuthAndScopes_AndSentUpstream() async throws {
        let fixture = try await OAuth2Gateway.start()
        defer { Task { await fixture.stop() } }
        await fixture.tokenRequestsEnded(1)
        #expect(try await fixture.upstreamReadiness()["auth"] as? String == "ok")
        #expect(try await fixture.readiness()["ready"] as? Bool == true)

        #expect(try await fixture.gateway.get("/items/1").status == 200)
        #expect(fixture.tokensSent(to: "/items/1") == ["Bearer tok-1"])
        let request = try #require(fixture.endpoint.requests.first)
        let presented = try #require(OAuth2TokenEndpoint.basicCredentials(request.headers["Authorization"]))
        #expect(presented == ("gateway", "client-secret-4f9a"))
        let form = OAuth2TokenEndpoint.form(request.body)
        #expect(form == ["grant_type": "client_credentials", "scope": "items.read items.write"])
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test func readiness_IsPending_UntilTheFirstTokenRequestEnds() async throws {
        let fixture = try await OAuth2Gateway.start(holding: true)
        defer { Task { await fixture.stop() } }
        await fixture.endpoint.waitForRequests(1)
        let pending = try await fixture.gateway.get("/health/ready")
        #expect(pending.status == 503)
        #expect(try await fixture.upstreamReadiness()["auth"] as? String == "pending")
        fixture.endpoint.release()
        await fixture.tokens.settled()
        #expect(try await fixture.gateway.get("/health/ready").status == 200)
        #expect(try await fixture.upstreamReadiness()["auth"] as? String == "ok")
    }

    @Test func clientSecretPost_SendsTheCredentialsInTheBody() async throws {
        let fixture = try await OAuth2Gateway.start(settings: {
            $0.clientAuthentication = .post
            $0.audience = "https://api.example"
            $0.parameters = ["resource": "items"]
        })
        defer { Task { await fixture.stop() } }
        await fixture.tokenRequestsEnded(1)
        #expect(try await fixture.gateway.get("/items/1").status == 200)
        let request = try #require(fixture.endpoint.requests.first)
        #expect(request.headers["Authorization"] == nil)
        #expect(
            OAuth2TokenEndpoint.form(request.body) == [
                "grant_type": "client_credentials", "scope": "items.read items.write",
                "audience": "https://api.example", "resource": "items", "client_id": "gateway",
                "client_secret": "client-secret-4f9a",
            ])
    }

    @Test func backgroundRefresh_AsksAfterEightTenthsOfTheLifetime_AndTheNewTokenIsSent() async throws {
        let fixture = try await OAuth2Gateway.start()
        defer { Task { await fixture.stop() } }
        await fixture.tokenRequestsEnded(1)
        fixture.clock.advance(by: 79)
        #expect(try await fixture.gateway.get("/items/1").status == 200)
        #expect(fixture.endpoint.requestCount == 1)
        #expect(try await fixture.metric("rds_gateway_upstream_token_age_seconds", [#"service="up""#]) == 79)

        fixture.clock.advance(by: 2)
        await fixture.tokenRequestsEnded(2)
        #expect(try await fixture.gateway.get("/items/2").status == 200)
        #expect(fixture.tokensSent(to: "/items/2") == ["Bearer tok-2"])
        #expect(try await fixture.metric("rds_gateway_upstream_token_age_seconds", [#"service="up""#]) == 0)
        let ok = try await fixture.metric("rds_gateway_upstream_token_requests_total", [#"result="ok""#])
        #expect(ok == 2)
    }

    @Test func defaultLifetime_Applies_WhenTheAnswerHasNoExpiresIn() async throws {
        let fixture = try await OAuth2Gateway.start(settings: { $0.defaultLifetime = 50 })
        fixture.endpoint.setLifetime(nil)
        defer { Task { await fixture.stop() } }
        await fixture.tokenRequestsEnded(1)
        fixture.clock.advance(by: 39)
        #expect(try await fixture.gateway.get("/items/1").status == 200)
        #expect(fixture.endpoint.requestCount == 1)
        fixture.clock.advance(by: 2)
        await fixture.tokenRequestsEnded(2)
    }

    @Test func hundredRequests_DuringARefresh_NeverWaitForIt_AndShareOneTokenRequestOnceExpired() async throws {
        let fixture = try await OAuth2Gateway.start()
        defer { Task { await fixture.stop() } }
        await fixture.tokenRequestsEnded(1)
        fixture.endpoint.hold()
        fixture.clock.advance(by: 81)
        await fixture.endpoint.waitForRequests(2)

        // The refresh is held at the endpoint; the current token is still valid: nobody waits.
        let whileValid = try await fixture.concurrentGets(from: 1, count: 100)
        #expect(whileValid == Array(repeating: 200, count: 100))
        #expect(fixture.tokensSent(to: "/items/100") == ["Bearer tok-1"])

        // Now it has expired: 100 requests wait for the one refresh under way, and nothing else is asked.
        fixture.clock.advance(by: 20)
        let waiting = Task { try await fixture.concurrentGets(from: 101, count: 100) }
        while fixture.gateway.container.metrics.requestsInFlight.value < 100 {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(fixture.endpoint.requestCount == 2)
        fixture.endpoint.release()
        #expect(try await waiting.value == Array(repeating: 200, count: 100))
        #expect(fixture.endpoint.requestCount == 2)
        #expect(Set((101...200).flatMap { fixture.tokensSent(to: "/items/\($0)") }) == ["Bearer tok-2"])
    }
}
