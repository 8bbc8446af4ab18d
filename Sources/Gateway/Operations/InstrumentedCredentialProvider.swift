import RDS

/// Wraps a service's ``CredentialProvider`` and counts the upstream calls it lets retry after a
/// 401 in `rds_gateway_upstream_auth_retries_total`.
public struct InstrumentedCredentialProvider: CredentialProvider {
    private let inner: any CredentialProvider
    private let service: String
    private let metrics: AuthMetrics

    /// Wraps `inner`, a provider of the service named `service`.
    public init(wrapping inner: any CredentialProvider, service: String, metrics: AuthMetrics) {
        self.inner = inner
        self.service = service
        self.metrics = metrics
        metrics.registerRetries(service: service)
    }

    /// The wrapped provider's credential.
    public func credential() async throws -> Credential {
        try await inner.credential()
    }

    /// The wrapped provider's answer, counted when it lets the call retry.
    public func rejected(_ credential: Credential) async -> Bool {
        let retry = await inner.rejected(credential)
        if retry { metrics.recordRetry(service: service) }
        return retry
    }
}
