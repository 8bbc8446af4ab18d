import Foundation
import HTTP1
import RDS

/// One OAuth2 client-credentials token request (RFC 6749 §4.4): how it is written and how its
/// answer is read. No state: ``OAuth2CredentialProvider`` decides when to make one.
struct OAuth2TokenExchange: Sendable {
    /// What a token request ended in, as counted by `rds_gateway_upstream_token_requests_total`.
    enum Result: String, Sendable, CaseIterable {
        /// A token came back.
        case ok
        /// The endpoint answered with an RFC 6749 §5.2 error (`invalid_client`, …).
        case refused
        /// The endpoint failed otherwise: another status, or an answer without a usable token.
        case failed
        /// The endpoint could not be reached or did not answer in time.
        case unreachable
        /// The client secret could not be read; nothing was sent.
        case noSecret = "no_secret"
    }

    /// The largest token answer read, in bytes.
    static let maxAnswerBytes = 65_536

    let settings: OAuth2Settings
    let endpoint: UpstreamEndpoint
    /// The token URL's path and query.
    let target: String
    let secret: SecretReader

    /// An exchange for `settings`; `nil` when the token URL is not `http://` or `https://`.
    init?(settings: OAuth2Settings, secret: SecretReader) {
        guard let url = URL(string: settings.tokenURL), let endpoint = UpstreamEndpoint(url: url),
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return nil }
        self.settings = settings
        self.endpoint = endpoint
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        target = components.percentEncodedQuery.map { path + "?" + $0 } ?? path
        self.secret = secret
    }

    /// The `POST` to the token endpoint, and the client secret it carries (for redaction in
    /// ``token(status:body:clientSecret:sentAt:receivedAt:)``).
    /// - Throws: ``ServiceError`` (`unavailable`) when the client secret cannot be read.
    func request() throws -> (request: HTTPRequest, clientSecret: String) {
        let clientSecret = try secret.read()
        var form: [(String, String)] = [("grant_type", "client_credentials")]
        if !settings.scopes.isEmpty { form.append(("scope", settings.scopes.joined(separator: " "))) }
        if let audience = settings.audience { form.append(("audience", audience)) }
        form += settings.parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        var headers = HTTPHeaders([
            (name: "Host", value: endpoint.hostHeader), (name: "Accept", value: "application/json"),
            (name: "Content-Type", value: "application/x-www-form-urlencoded"),
        ])
        switch settings.clientAuthentication {
        case .basic:
            // RFC 6749 §2.3.1: the id and secret are form-encoded before Base64.
            let pair = Self.formEncoded(settings.clientId) + ":" + Self.formEncoded(clientSecret)
            headers["Authorization"] = "Basic " + Data(pair.utf8).base64EncodedString()
        case .post:
            form += [("client_id", settings.clientId), ("client_secret", clientSecret)]
        }
        let body = form.map { Self.formEncoded($0.0) + "=" + Self.formEncoded($0.1) }.joined(separator: "&")
        return (HTTPRequest(method: .post, target: target, headers: headers, body: Array(body.utf8)), clientSecret)
    }

    /// The token in a 200 answer, or the endpoint's error.
    /// - Parameters:
    ///   - status: The answer's status.
    ///   - body: The answer's body.
    ///   - clientSecret: Removed from any description the endpoint echoes.
    ///   - sentAt: When the request was sent: the lifetime counts from there.
    ///   - receivedAt: When the answer came.
    func token(status: Int, body: [UInt8], clientSecret: String, sentAt: Date, receivedAt: Date)
        throws(TokenEndpointError) -> OAuth2Token
    {
        let object =
            body.count <= Self.maxAnswerBytes
            ? (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] : nil
        guard status == 200 else {
            throw refusal(status: status, object: object, clientSecret: clientSecret)
        }
        guard let object, let accessToken = object["access_token"] as? String, !accessToken.isEmpty,
            accessToken.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
        else { throw invalid(status, "sent no usable access_token") }
        let type = (object["token_type"] as? String)?.lowercased() ?? "bearer"
        guard type == "bearer" else { throw invalid(status, "sent a token of a type other than Bearer") }
        let lifetime = Self.seconds(object["expires_in"]) ?? settings.defaultLifetime
        return OAuth2Token(
            accessToken: accessToken, lifetime: lifetime, fraction: settings.refreshFraction, issuedAt: sentAt,
            receivedAt: receivedAt)
    }

    /// The error of a non-200 answer: its RFC 6749 §5.2 `error` when it has one.
    private func refusal(status: Int, object: [String: Any]?, clientSecret: String) -> TokenEndpointError {
        var details = ["status": String(status), "token_endpoint": endpoint.description]
        guard let code = object?["error"] as? String, TokenEndpointError.isErrorCode(code) else {
            return TokenEndpointError(
                code: TokenEndpointError.failedCode,
                message: "The token endpoint \(endpoint) answered HTTP \(status) without an OAuth2 error",
                details: details)
        }
        details["error"] = code
        var message = "The token endpoint \(endpoint) answered HTTP \(status): \(code)"
        if let text = object?["error_description"] as? String, !text.isEmpty {
            let bounded = String(text.prefix(200)).replacingOccurrences(of: clientSecret, with: "[redacted]")
            message += " (\(bounded.filter { !$0.isNewline }))"
        }
        return TokenEndpointError(code: code, message: message, details: details)
    }

    private func invalid(_ status: Int, _ what: String) -> TokenEndpointError {
        TokenEndpointError(
            code: TokenEndpointError.invalidResponseCode, message: "The token endpoint \(endpoint) \(what)",
            details: ["status": String(status), "token_endpoint": endpoint.description])
    }

    /// `expires_in` as a positive number of seconds, given as a number or (by some servers) a string.
    private static func seconds(_ value: Any?) -> TimeInterval? {
        let seconds = (value as? NSNumber)?.doubleValue ?? (value as? String).flatMap(Double.init)
        guard let seconds, seconds.isFinite, seconds > 0 else { return nil }
        return min(seconds, ConfigurationValidator.maxLifetime)
    }

    /// `application/x-www-form-urlencoded`: everything but RFC 3986 unreserved characters percent-encoded.
    static func formEncoded(_ text: String) -> String { HTTPService.percentEncoded(text) }
}
