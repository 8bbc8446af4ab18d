import RDS

extension HTTPService {
    /// A service error about `key`, with the service name and, when given, the upstream status and
    /// endpoint. Never includes the query or header values, which may carry credentials.
    func failure(
        _ kind: ServiceError.Kind, _ what: String, key: ResourceKey, status: Int? = nil,
        endpoint: UpstreamEndpoint? = nil, inner: (any Error)? = nil
    ) -> ServiceError {
        var details = ["service": name, "path": key.path]
        if let status { details["status"] = String(status) }
        if let endpoint { details["endpoint"] = endpoint.description }
        let suffix = status.map { " (HTTP \($0))" } ?? ""
        let message = "The \(name) service \(what) for \(key.path)\(suffix)"
        return ServiceError(kind, message, details: details, inner: inner)
    }

    /// The service error wrapping a transport failure.
    func failure(_ error: TransportError, key: ResourceKey, endpoint: UpstreamEndpoint) -> ServiceError {
        let (kind, what): (ServiceError.Kind, String) =
            switch error.kind {
            case .timeout: (.timeout, "did not answer in time")
            case .refused: (.unavailable, "could not be reached")
            case .failed, .cancelled: (.unavailable, "dropped the exchange")
            case .malformedResponse: (.badResponse, "sent a malformed answer")
            case .overBudget: (.unavailable, "sent an answer too large to hold now")
            }
        return failure(kind, what, key: key, endpoint: endpoint, inner: error)
    }

    /// The credential of every provider, in order; a provider's failure other than a
    /// ``ServiceError`` is reported as `unavailable`.
    func currentCredentials(key: ResourceKey) async throws -> [Credential] {
        var current: [Credential] = []
        for provider in credentials {
            do {
                current.append(try await provider.credential())
            } catch let error as ServiceError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw failure(.unavailable, "has no credential", key: key, inner: error)
            }
        }
        return current
    }

    /// Reports the 401 to each provider of `sent`; `true` when one says a new credential may help.
    func newCredentialMayHelp(_ sent: [Credential]) async -> Bool {
        var mayHelp = false
        for (provider, credential) in zip(credentials, sent) {
            if await provider.rejected(credential) { mayHelp = true }
        }
        return mayHelp
    }
}
