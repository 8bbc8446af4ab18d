import Foundation
import HTTP1
import RDS
import Synchronization

/// OAuth2 client credentials for one service: fetches an access token at start-up, keeps it in
/// memory, refreshes it in the background after a fraction of its lifetime, and sends it as
/// `Authorization: Bearer <token>`.
///
/// - Requests never wait while the current token is valid. Without one (not fetched yet,
///   expired, or dropped after a 401) they wait for the one token request in flight, which all
///   concurrent needs share; a failure is answered at once to requests within a second of it, so
///   a dead endpoint is not asked once per request.
/// - ``rejected(_:)`` drops the token the upstream refused, once, however many requests saw it.
/// - Failures are ``ServiceError`` `upstream_auth_failed` wrapping a ``TokenEndpointError``
///   (the endpoint's RFC 6749 error), a ``TransportError`` or the secret's error.
/// - Neither the client secret nor a token ever reaches a log, a metric or an error.
public final class OAuth2CredentialProvider: CredentialProvider {
    /// The service the token is for.
    public let service: String
    let exchange: OAuth2TokenExchange
    let transport: any Transport
    let timeouts: UpstreamTimeouts
    let clock: any ClockProvider
    let logger: any Logger
    let metrics: AuthMetrics?
    let state = Mutex(State())

    /// How long a failed token request answers requests without a new one, in seconds.
    static let failureReuse: TimeInterval = 1
    /// The longest wait between background retries after failures, in seconds.
    static let maxBackoff: TimeInterval = 60

    struct State {
        var token: OAuth2Token?
        var flight: Task<OAuth2Token, any Error>?
        var lastFailure: (error: ServiceError, at: Date)?
        var consecutiveFailures = 0
        var requestsEnded = 0
        var refresher: Task<Void, Never>?
        var stopped = false
    }

    /// What ``credential()`` does, decided under the lock.
    private enum Step {
        case use(OAuth2Token)
        case wait(Task<OAuth2Token, any Error>)
        case fail(ServiceError)
    }

    /// Creates a provider; ``start()`` begins fetching.
    /// - Parameters:
    ///   - service: The service's name, for errors, logs and metrics.
    ///   - settings: The validated OAuth2 settings.
    ///   - secret: Reads the client secret.
    ///   - transport: Carries the token requests (our client for `http://`, URLSession for `https://`).
    ///   - timeouts: The token requests' timeouts.
    ///   - clock: Times lifetimes, refreshes and retries.
    ///   - logger: Logs token requests (never a secret).
    ///   - metrics: Counts token requests and reads the token's age.
    /// - Returns: `nil` when the token URL is not `http://` or `https://` (validation rejects it first).
    public init?(
        service: String, settings: OAuth2Settings, secret: SecretReader, transport: any Transport,
        timeouts: UpstreamTimeouts, clock: any ClockProvider, logger: any Logger, metrics: AuthMetrics? = nil
    ) {
        guard let exchange = OAuth2TokenExchange(settings: settings, secret: secret) else { return nil }
        self.service = service
        self.exchange = exchange
        self.transport = transport
        self.timeouts = timeouts
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        metrics?.register(service: service)
    }

    /// The current token, or the one being fetched.
    /// - Throws: ``ServiceError`` `upstream_auth_failed` when no token can be had.
    public func credential() async throws -> Credential {
        let now = clock.now
        let step: Step = state.withLock { state in
            if let token = state.token, now < token.expiresAt { return .use(token) }
            if let flight = state.flight { return .wait(flight) }
            if let failure = state.lastFailure, now < failure.at + Self.failureReuse {
                return .fail(failure.error)
            }
            return .wait(startFlight(&state))
        }
        switch step {
        case .use(let token): return token.credential
        case .fail(let error): throw error
        case .wait(let flight): return try await flight.value.credential
        }
    }

    /// Drops `credential` if it is still the current token; the next ``credential()`` fetches anew.
    /// - Returns: `true`: a new token may be accepted.
    public func rejected(_ credential: Credential) async -> Bool {
        state.withLock { state in
            if state.token?.credential == credential { state.token = nil }
        }
        return true
    }

    /// `pending` until the first token request ends, then how the last one went.
    public var status: AuthStatus {
        state.withLock { state in
            if let failure = state.lastFailure {
                return AuthStatus(.failing, error: ErrorChain(failure.error).links.dropFirst().first?.code)
            }
            return AuthStatus(state.requestsEnded == 0 ? .pending : .ok)
        }
    }

    /// Seconds since the current token was asked for; `nil` without one.
    public var tokenAge: TimeInterval? {
        let now = clock.now
        return state.withLock { $0.token.map { now.timeIntervalSince($0.issuedAt) } }
    }

    /// Returns once the token request in flight, if any, has ended (for tests and shutdown).
    public func settled() async {
        let flight = state.withLock { $0.flight }
        _ = try? await flight?.value
    }

    /// Starts the one token request; the caller holds the lock.
    func startFlight(_ state: inout State) -> Task<OAuth2Token, any Error> {
        let flight = Task { try await self.fetch() }
        state.flight = flight
        return flight
    }

    /// One token request: records its outcome, clears the flight, returns the token or throws.
    private func fetch() async throws -> OAuth2Token {
        let sentAt = clock.now
        let outcome: Swift.Result<OAuth2Token, ServiceError>
        let result: OAuth2TokenExchange.Result
        do {
            let token = try await requestToken(sentAt: sentAt)
            (outcome, result) = (.success(token), .ok)
        } catch {
            (outcome, result) = (.failure(error.error), error.result)
        }
        let now = clock.now
        state.withLock { state in
            state.flight = nil
            state.requestsEnded += 1
            switch outcome {
            case .success(let token):
                state.token = token
                state.lastFailure = nil
                state.consecutiveFailures = 0
            case .failure(let error):
                state.lastFailure = (error, now)
                state.consecutiveFailures += 1
            }
        }
        metrics?.recordTokenRequest(service: service, result: result.rawValue)
        switch outcome {
        case .success(let token):
            logger.log(
                .info, "token_refreshed",
                ["service": .string(service), "expires_in": .int(Int(token.expiresAt.timeIntervalSince(sentAt)))])
        case .failure(let error):
            logger.log(
                .warning, "token_request_failed",
                [
                    "service": .string(service), "result": .string(result.rawValue),
                    "error": .string(ErrorChain(error).links.map(\.code).joined(separator: " > ")),
                ])
        }
        return try outcome.get()
    }
}
