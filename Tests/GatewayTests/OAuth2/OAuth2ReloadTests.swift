import Foundation
import Synchronization
import Testing

@testable import Gateway

/// A configuration reload keeps a service's token when its settings are unchanged, and replaces
/// (and stops) the provider when they changed.
@Suite(.timeLimit(.minutes(1)))
struct OAuth2ReloadTests {
    @Test func reload_KeepsTheTokenOfAnUnchangedService_AndReplacesAChangedOne() async throws {
        let fixture = try await OAuth2Gateway.start()
        defer { Task { await fixture.stop() } }
        await fixture.tokenRequestsEnded(1)
        let container = fixture.gateway.container
        let source = Mutex(container.configuration)
        let reloader = GatewayReloader(container: container) { (source.withLock { $0 }, "memory") }

        _ = try await reloader.reload()
        #expect(reloader.handler.container.credentials["up"]?.tokens === fixture.tokens)
        #expect(fixture.endpoint.requestCount == 1)

        source.withLock { $0.services["up"]?.auth?.oauth2?.scopes = ["items.read"] }
        _ = try await reloader.reload()
        let replacement = try #require(reloader.handler.container.credentials["up"]?.tokens)
        #expect(replacement !== fixture.tokens)
        #expect(fixture.tokens.state.withLock { $0.stopped })
        await fixture.endpoint.waitForRequests(2)
        await replacement.settled()
        #expect(OAuth2TokenEndpoint.form(fixture.endpoint.requests[1].body)["scope"] == "items.read")
        reloader.handler.container.retireCredentials()
        #expect(replacement.state.withLock { $0.stopped })
    }
}
