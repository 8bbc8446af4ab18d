import Foundation
import RDS

extension GatewayDependencyContainer {
    /// The credential providers of one service, built once and shared by all its repositories
    /// (one OAuth2 token per service, not per repository).
    struct ServiceCredentials: Sendable {
        /// What the service's calls carry, in order: the API key, then the bearer or OAuth2 token.
        let providers: [any CredentialProvider]
        /// The OAuth2 provider among them, for readiness, metrics, start and stop.
        let tokens: OAuth2CredentialProvider?
    }

    /// The credentials of every service of `configuration`: taken over from `previous` when the
    /// service's settings are unchanged (the token carries on), built otherwise.
    static func makeCredentials(
        _ configuration: GatewayConfiguration, previous: GatewayDependencyContainer?, clock: any ClockProvider,
        logger: any Logger, transport: any Transport, metrics: GatewayMetrics
    ) -> [String: ServiceCredentials] {
        var all: [String: ServiceCredentials] = [:]
        for (name, settings) in configuration.services {
            if let previous, let kept = previous.credentials[name], previous.configuration.services[name] == settings {
                all[name] = kept
                continue
            }
            var providers: [any CredentialProvider] = []
            var tokens: OAuth2CredentialProvider?
            if let apiKey = settings.apiKey {
                let source: SecretSource = apiKey.env.map { .environment($0) } ?? .file(apiKey.file ?? "")
                let placement: Credential.Placement =
                    apiKey.header.map { .header($0) } ?? .queryParameter(apiKey.query ?? "")
                providers.append(
                    SecretCredentialProvider(reader: SecretReader(source, what: "API key"), placement: placement))
            }
            if let bearer = settings.auth?.bearer {
                providers.append(SecretCredentialProvider.bearer(SecretReader(bearer, what: "bearer token")))
            }
            if let oauth2 = settings.auth?.oauth2 {
                tokens = OAuth2CredentialProvider(
                    service: name, settings: oauth2, secret: SecretReader(oauth2.clientSecret, what: "client secret"),
                    transport: transport, timeouts: settings.timeouts, clock: clock, logger: logger,
                    metrics: metrics.auth)
                if let tokens { providers.append(tokens) }
            }
            all[name] = ServiceCredentials(
                providers: providers.map {
                    InstrumentedCredentialProvider(wrapping: $0, service: name, metrics: metrics.auth)
                },
                tokens: tokens)
        }
        return all
    }

    /// Starts fetching the tokens of the services built afresh, and lists every token's status in
    /// readiness and its age in the metrics.
    func startCredentials() {
        var statuses: [String: @Sendable () -> AuthStatus] = [:]
        for (name, credentials) in self.credentials {
            guard let tokens = credentials.tokens else { continue }
            statuses[name] = { tokens.status }
            metrics.auth.observeTokenAge(service: name) { tokens.tokenAge }
            tokens.start()
        }
        readiness.trackAuth(statuses)
    }

    /// Stops the token refreshers of this container that `successor` did not take over (all of
    /// them when there is none: shutdown).
    public func retireCredentials(replacedBy successor: GatewayDependencyContainer? = nil) {
        for (name, credentials) in self.credentials {
            guard let tokens = credentials.tokens, successor?.credentials[name]?.tokens !== tokens else { continue }
            tokens.stop()
            if successor?.credentials[name]?.tokens == nil { metrics.auth.forgetTokenAge(service: name) }
        }
    }
}
