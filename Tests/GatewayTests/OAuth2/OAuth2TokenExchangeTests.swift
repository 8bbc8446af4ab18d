import Foundation
import HTTP1
import RDS
import Testing

@testable import Gateway

/// How a token request is written and its answer read (RFC 6749 §4.4, §5.1, §5.2), without sockets.
struct OAuth2TokenExchangeTests {
    static let secret = "p@ss word+/=secret"
    static let sentAt = Date(timeIntervalSince1970: 1_000_000)

    static func exchange(_ changes: (inout OAuth2Settings) -> Void = { _ in }) throws -> OAuth2TokenExchange {
        var settings = OAuth2Settings(
            tokenURL: "https://login.example.com:8443/tenant/token?api-version=2", clientId: "my client",
            clientSecret: .environment("S"), scopes: ["a", "b:c"])
        changes(&settings)
        let reader = SecretReader(.environment("S"), what: "client secret", environment: ["S": secret])
        return try #require(OAuth2TokenExchange(settings: settings, secret: reader))
    }

    static func token(_ body: String, status: Int = 200, _ changes: (inout OAuth2Settings) -> Void = { _ in })
        throws -> Result<OAuth2Token, TokenEndpointError>
    {
        let exchange = try exchange(changes)
        return Result { () throws(TokenEndpointError) in
            try exchange.token(
                status: status, body: Array(body.utf8), clientSecret: secret, sentAt: sentAt, receivedAt: sentAt + 1)
        }
    }

    @Test func request_UsesBasicWithFormEncodedIdAndSecret_AndKeepsTheTokenURLQuery() throws {
        let (request, clientSecret) = try Self.exchange().request()
        #expect(clientSecret == Self.secret)
        #expect(request.method == .post)
        #expect(request.target == "/tenant/token?api-version=2")
        #expect(request.headers["Host"] == "login.example.com:8443")
        let pair = "my%20client:p%40ss%20word%2B%2F%3Dsecret"
        #expect(request.headers["Authorization"] == "Basic " + Data(pair.utf8).base64EncodedString())
        #expect(String(decoding: request.body, as: UTF8.self) == "grant_type=client_credentials&scope=a%20b%3Ac")
    }

    @Test func token_ReadsExpiresIn_AsNumberOrString_ElseTheDefault() throws {
        let number = try Self.token(#"{"access_token":"abc","token_type":"bearer","expires_in":120}"#).get()
        #expect(number.expiresAt == Self.sentAt + 120)
        #expect(number.refreshAt == Self.sentAt + 96)
        #expect(number.credential == Credential(placement: .header("Authorization"), value: "Bearer abc"))
        let text = try Self.token(#"{"access_token":"abc","token_type":"Bearer","expires_in":"60"}"#).get()
        #expect(text.expiresAt == Self.sentAt + 60)
        let absent = try Self.token(#"{"access_token":"abc","token_type":"Bearer"}"#, { $0.defaultLifetime = 30 }).get()
        #expect(absent.expiresAt == Self.sentAt + 30)
        let tiny = try Self.token(#"{"access_token":"abc","expires_in":1}"#).get()
        #expect(tiny.refreshAt == Self.sentAt + 2, "never sooner than a second after the answer")
    }

    @Test(arguments: [
        (200, #"{"token_type":"Bearer"}"#, "token_response_invalid"),
        (200, #"{"access_token":"a b","token_type":"Bearer"}"#, "token_response_invalid"),
        (200, #"{"access_token":"abc","token_type":"mac"}"#, "token_response_invalid"),
        (200, "<html>", "token_response_invalid"),
        (500, "<html>oops</html>", "token_endpoint_failed"),
        (400, #"{"error":"invalid scope with spaces"}"#, "token_endpoint_failed"),
        (400, #"{"error":"invalid_scope"}"#, "invalid_scope"),
        (401, #"{"error":"invalid_client"}"#, "invalid_client"),
    ])
    func token_Fails_WithTheEndpointsErrorOrOurs(status: Int, body: String, code: String) throws {
        guard case .failure(let error) = try Self.token(body, status: status) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == code)
        #expect(error.details["status"] == String(status))
    }

    @Test func token_RedactsTheClientSecret_FromAnEchoedDescription() throws {
        let body = #"{"error":"invalid_client","error_description":"bad secret \#(Self.secret)"}"#
        guard case .failure(let error) = try Self.token(body, status: 401) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.message.contains("bad secret [redacted]"))
        #expect(!error.message.contains(Self.secret))
    }

    @Test func credentialAndToken_DescriptionsNeverShowTheSecret() throws {
        let token = try Self.token(#"{"access_token":"t0k3n-value","expires_in":60}"#).get()
        var dumped = ""
        dump(token, to: &dumped)
        for text in ["\(token)", "\(token.credential)", String(reflecting: token.credential), dumped] {
            #expect(!text.contains("t0k3n-value"), "\(text)")
        }
    }
}
