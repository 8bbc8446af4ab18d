/// How a service authenticates to its upstream besides (or instead of) a static API key:
/// exactly one of a bearer token read from a variable or file, or OAuth2 client credentials.
public struct AuthSettings: Sendable, Equatable, Decodable {
    /// A bearer token sent as `Authorization: Bearer <token>`.
    public var bearer: SecretSource?
    /// OAuth2 client credentials: the gateway fetches and refreshes the access token.
    public var oauth2: OAuth2Settings?

    /// Creates auth settings.
    public init(bearer: SecretSource? = nil, oauth2: OAuth2Settings? = nil) {
        self.bearer = bearer
        self.oauth2 = oauth2
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case bearer, oauth2 }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        bearer = try container.decodeIfPresent(SecretSource.self, forKey: .bearer)
        oauth2 = try container.decodeIfPresent(OAuth2Settings.self, forKey: .oauth2)
    }
}
