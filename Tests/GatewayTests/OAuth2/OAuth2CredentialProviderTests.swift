import Foundation
import HTTP1
import RDS
import RDSTesting
import Synchronization
import Testing

@testable import Gateway

/// The provider alone over a scripted transport, on a manual clock (the refresher is not
/// started): when requests reuse a failure, and what ``OAuth2CredentialProvider/rejected(_:)`` drops.
struct OAuth2CredentialProviderTests {
    /// Whether the scripted token endpoint answers.
    final class Switch: Sendable {
        private let state = Atomic(true)
        var isOn: Bool { state.load(ordering: .relaxed) }
        func set(_ on: Bool) { state.store(on, ordering: .relaxed) }
    }

    static func provider(_ transport: ScriptedTransport, clock: ManualClock) throws -> OAuth2CredentialProvider {
        let settings = OAuth2Settings(
            tokenURL: "http://127.0.0.1:9/token", clientId: "c", clientSecret: .environment("S"))
        return try #require(
            OAuth2CredentialProvider(
                service: "up", settings: settings,
                secret: SecretReader(.environment("S"), what: "client secret", environment: ["S": "s"]),
                transport: transport, timeouts: UpstreamTimeouts(), clock: clock, logger: RecordingLogger()))
    }

    /// A token endpoint answering 200 with `tok-N` (lifetime 100 s) while `up` is true, else refusing.
    static func endpoint(_ up: Switch) -> ScriptedTransport {
        let count = Mutex(0)
        return ScriptedTransport { _ in
            guard up.isOn else { throw TransportError(.refused, "refused") }
            let token = count.withLock { count in
                count += 1
                return "tok-\(count)"
            }
            return HTTPResponse(
                status: 200, bytes: Array(#"{"access_token":"\#(token)","expires_in":100}"#.utf8))
        }
    }

    @Test func failure_IsReusedForOneSecond_EvenWithAnExpiredToken() async throws {
        let clock = ManualClock()
        let up = Switch()
        let transport = Self.endpoint(up)
        let provider = try Self.provider(transport, clock: clock)
        #expect(try await provider.credential().value == "Bearer tok-1")

        up.set(false)
        clock.advance(by: 101)
        let first = await #expect(throws: ServiceError.self) { try await provider.credential() }
        #expect(first?.kind == .authFailed)
        #expect(ErrorChain(try #require(first)).links.map(\.code) == ["upstream_auth_failed", "transport_refused"])
        await #expect(throws: ServiceError.self) { try await provider.credential() }
        #expect(transport.requests.count == 2)
        #expect(provider.status == AuthStatus(.failing, error: "transport_refused"))

        up.set(true)
        clock.advance(by: 1)
        #expect(try await provider.credential().value == "Bearer tok-2")
        #expect(transport.requests.count == 3)
        #expect(provider.status == AuthStatus(.ok))
    }

    @Test func rejected_DropsOnlyTheCurrentToken() async throws {
        let clock = ManualClock()
        let transport = Self.endpoint(Switch())
        let provider = try Self.provider(transport, clock: clock)
        let first = try await provider.credential()
        #expect(await provider.rejected(first))
        let second = try await provider.credential()
        #expect(second.value == "Bearer tok-2")
        #expect(await provider.rejected(first))  // a late 401 for the old token drops nothing
        #expect(try await provider.credential() == second)
        #expect(transport.requests.count == 2)
    }
}
