/// Where a secret comes from: an environment variable or a file (e.g. a mounted secret). Never
/// the secret itself: the configuration refuses a secret written inline.
///
/// In JSON: `{"env": "WEATHER_CLIENT_SECRET"}` or `{"file": "/run/secrets/weather"}`.
public enum SecretSource: Sendable, Hashable, Decodable, CustomStringConvertible {
    /// The environment variable of this name, read once at start-up.
    case environment(String)
    /// The file at this path, read again whenever it changes.
    case file(String)

    /// What a configuration must hold instead of an inline secret.
    static let expected = #"expected {"env": "VARIABLE"} or {"file": "/path"} (a secret is never written inline)"#

    enum CodingKeys: String, CodingKey, CaseIterable { case env, file }

    /// Decodes `{"env": …}` or `{"file": …}`; anything else (an inline string above all) is an
    /// error that names the key and never quotes the value.
    public init(from decoder: any Decoder) throws {
        let corrupted = DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: decoder.codingPath, debugDescription: Self.expected))
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else { throw corrupted }
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let env = (try? container.decodeIfPresent(String.self, forKey: .env)) ?? nil
        let file = (try? container.decodeIfPresent(String.self, forKey: .file)) ?? nil
        switch (env, file) {
        case (let name?, nil) where !name.isEmpty: self = .environment(name)
        case (nil, let path?) where !path.isEmpty: self = .file(path)
        default: throw corrupted
        }
    }

    /// `environment variable NAME` or `file PATH`.
    public var description: String {
        switch self {
        case .environment(let name): "environment variable \(name)"
        case .file(let path): "file \(path)"
        }
    }

    /// The variable's name or the file's path.
    var location: String {
        switch self {
        case .environment(let name): name
        case .file(let path): path
        }
    }
}
