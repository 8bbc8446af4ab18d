/// Supplies the credential a service sends to its upstream: a static API key, a bearer token
/// from a file, an OAuth2 access token.
///
/// Injected into the service, like the clock; the service never holds a credential itself. The
/// credential must never reach a log, a metric or an error message.
public protocol CredentialProvider: Sendable {
    /// The credential to send with the next upstream call.
    ///
    /// Called once per upstream call. Cheap while a current credential is held; may fetch one
    /// (an OAuth2 token request), and concurrent callers then share that one fetch.
    /// - Throws: a ``ChainedError`` naming where the credential should have come from (never the
    ///   secret), or `CancellationError`.
    func credential() async throws -> Credential

    /// Tells the provider that the upstream rejected `credential` (HTTP 401).
    ///
    /// The provider drops it if it is still the current one (only once, however many calls saw
    /// it) and says whether asking ``credential()`` again may give one the upstream accepts.
    /// - Returns: `true` when the caller should retry once with a fresh ``credential()``.
    func rejected(_ credential: Credential) async -> Bool
}
