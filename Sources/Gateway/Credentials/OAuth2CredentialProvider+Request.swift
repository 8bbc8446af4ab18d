import Foundation
import HTTP1
import RDS

extension OAuth2CredentialProvider {
    /// A failed token request: the error for callers and the result for the metric.
    struct TokenRequestFailure: Error {
        let result: OAuth2TokenExchange.Result
        let error: ServiceError
    }

    /// Sends one token request and reads its answer.
    /// - Throws: the failure, its error being ``ServiceError`` `upstream_auth_failed`.
    func requestToken(sentAt: Date) async throws(TokenRequestFailure) -> OAuth2Token {
        let prepared: (request: HTTPRequest, clientSecret: String)
        do {
            prepared = try exchange.request()
        } catch {
            throw TokenRequestFailure(result: .noSecret, error: failure("has no client secret", inner: error))
        }
        let body: [UInt8]
        let status: Int
        do {
            let response = try await transport.send(prepared.request, to: exchange.endpoint, timeouts: timeouts)
            status = response.status
            body = try await HTTPService.collect(response.body)
        } catch {
            throw TokenRequestFailure(
                result: .unreachable, error: failure("could not get an answer from its token endpoint", inner: error))
        }
        do {
            return try exchange.token(
                status: status, body: body, clientSecret: prepared.clientSecret, sentAt: sentAt, receivedAt: clock.now)
        } catch {
            let refused = ![TokenEndpointError.failedCode, TokenEndpointError.invalidResponseCode].contains(error.code)
            let what = refused ? "was refused a token by its token endpoint" : "got no token from its token endpoint"
            throw TokenRequestFailure(result: refused ? .refused : .failed, error: failure(what, inner: error))
        }
    }

    /// `The NAME service WHAT`, code `upstream_auth_failed`, naming the service and the token endpoint.
    private func failure(_ what: String, inner: any Error) -> ServiceError {
        ServiceError(
            .authFailed, "The \(service) service \(what)",
            details: ["service": service, "token_endpoint": exchange.endpoint.description], inner: inner)
    }
}
