import Foundation

/// OAuth2 client credentials (RFC 6749 §4.4) for one service: where to ask for an access token,
/// as which client, for what, and when to refresh it.
public struct OAuth2Settings: Sendable, Equatable, Decodable {
    /// How the client authenticates to the token endpoint (RFC 6749 §2.3.1).
    public enum ClientAuthentication: String, Sendable, Equatable, Decodable {
        /// HTTP Basic with the form-encoded id and secret (the default, which every server must accept).
        case basic
        /// `client_id` and `client_secret` in the request body.
        case post
    }

    /// The token endpoint: `http://…` (our client) or `https://…` (URLSession).
    public var tokenURL: String
    /// The client identifier.
    public var clientId: String
    /// Where the client secret comes from; never inline.
    public var clientSecret: SecretSource
    /// The scopes asked for, sent space-separated as `scope`; none by default.
    public var scopes: [String]
    /// The `audience` parameter some servers want, if any.
    public var audience: String?
    /// Extra form parameters sent with every token request, e.g. `resource`.
    public var parameters: [String: String]
    /// `basic` (default) or `post`.
    public var clientAuthentication: ClientAuthentication
    /// The fraction of a token's lifetime after which it is refreshed in the background (default 0.8).
    public var refreshFraction: Double
    /// The lifetime assumed when the answer has no `expires_in`, in seconds (default 3600).
    public var defaultLifetime: Double

    /// Creates OAuth2 settings.
    public init(
        tokenURL: String, clientId: String, clientSecret: SecretSource, scopes: [String] = [], audience: String? = nil,
        parameters: [String: String] = [:], clientAuthentication: ClientAuthentication = .basic,
        refreshFraction: Double = 0.8, defaultLifetime: Double = 3_600
    ) {
        self.tokenURL = tokenURL
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.scopes = scopes
        self.audience = audience
        self.parameters = parameters
        self.clientAuthentication = clientAuthentication
        self.refreshFraction = refreshFraction
        self.defaultLifetime = defaultLifetime
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case tokenURL, clientId, clientSecret, scopes, audience, parameters, clientAuthentication, refreshFraction
        case defaultLifetime
    }

    /// Decodes the settings, rejecting unknown keys and inline secrets.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tokenURL = try container.decode(String.self, forKey: .tokenURL)
        clientId = try container.decode(String.self, forKey: .clientId)
        clientSecret = try container.decode(SecretSource.self, forKey: .clientSecret)
        scopes = try container.decodeIfPresent([String].self, forKey: .scopes) ?? []
        audience = try container.decodeIfPresent(String.self, forKey: .audience)
        parameters = try container.decodeIfPresent([String: String].self, forKey: .parameters) ?? [:]
        let authentication = try container.decodeIfPresent(String.self, forKey: .clientAuthentication) ?? "basic"
        guard let method = ClientAuthentication(rawValue: authentication) else {
            throw DecodingError.dataCorruptedError(
                forKey: .clientAuthentication, in: container, debugDescription: #"expected "basic" or "post""#)
        }
        clientAuthentication = method
        refreshFraction = try container.decodeIfPresent(Double.self, forKey: .refreshFraction) ?? 0.8
        defaultLifetime = try container.decodeIfPresent(Double.self, forKey: .defaultLifetime) ?? 3_600
    }

    /// The form parameters that the gateway sets itself; `parameters` may not hold them.
    static let reservedParameters: Set<String> = ["grant_type", "scope", "audience", "client_id", "client_secret"]
}
