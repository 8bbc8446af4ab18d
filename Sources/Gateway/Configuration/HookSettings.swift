import Foundation

/// A repository's webhook (`repositories.NAME.hook`): the secret that signs the upstream's change
/// notifications at `POST /hooks/NAME`, and how old a signed timestamp may be.
public struct HookSettings: Sendable, Equatable, Decodable {
    /// Where the HMAC secret comes from (`{"env": …}` or `{"file": …}`).
    public var secret: SecretSource
    /// The secret used when `secret` names an unset variable: for offline demos only.
    public var insecureDefault: String?
    /// How far a request's timestamp may be from the gateway's clock, in seconds.
    public var window: TimeInterval

    /// Creates settings.
    public init(secret: SecretSource, insecureDefault: String? = nil, window: TimeInterval = 300) {
        self.secret = secret
        self.insecureDefault = insecureDefault
        self.window = window
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case secret, insecureDefault, window }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        secret = try container.decode(SecretSource.self, forKey: .secret)
        insecureDefault = try container.decodeIfPresent(String.self, forKey: .insecureDefault)
        window = try container.decodeIfPresent(TimeInterval.self, forKey: .window) ?? 300
    }
}
