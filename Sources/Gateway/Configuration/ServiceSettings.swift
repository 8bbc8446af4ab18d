/// One upstream service: where it is, how long to wait for it, and what to send it every time.
public struct ServiceSettings: Sendable, Equatable, Decodable {
    /// `http://host[:port][/prefix]`, `https://…`, or `embedded:demo` for the built-in demo upstream.
    public var baseURL: String
    /// The upstream timeouts, in seconds.
    public var timeouts: UpstreamTimeouts
    /// Headers sent with every request to this service.
    public var headers: [String: String]
    /// Where the API key comes from and how it is sent, if the service needs one.
    public var apiKey: APIKeySettings?
    /// A bearer token or OAuth2 client credentials, if the service needs them.
    public var auth: AuthSettings?
    /// The upstream's event stream of changes to follow, if any.
    public var changes: ChangesSettings?

    /// Creates service settings.
    public init(
        baseURL: String, timeouts: UpstreamTimeouts = UpstreamTimeouts(), headers: [String: String] = [:],
        apiKey: APIKeySettings? = nil, auth: AuthSettings? = nil, changes: ChangesSettings? = nil
    ) {
        self.baseURL = baseURL
        self.timeouts = timeouts
        self.headers = headers
        self.apiKey = apiKey
        self.auth = auth
        self.changes = changes
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case baseURL, timeouts, headers, apiKey, auth, changes }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        baseURL = try container.decode(String.self, forKey: .baseURL)
        timeouts = try container.decodeIfPresent(UpstreamTimeouts.self, forKey: .timeouts) ?? UpstreamTimeouts()
        headers = try container.decodeIfPresent([String: String].self, forKey: .headers) ?? [:]
        apiKey = try container.decodeIfPresent(APIKeySettings.self, forKey: .apiKey)
        auth = try container.decodeIfPresent(AuthSettings.self, forKey: .auth)
        changes = try container.decodeIfPresent(ChangesSettings.self, forKey: .changes)
    }
}

extension ServiceSettings {
    /// The `baseURL` naming the embedded demo upstream, replaced by its real address at start-up.
    public static let embeddedDemo = "embedded:demo"
}
