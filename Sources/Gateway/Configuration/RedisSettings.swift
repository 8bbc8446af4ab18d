import Foundation

/// How the gateway reaches the shared Redis (`cache.shared.redis`). Times are in seconds.
public struct RedisSettings: Sendable, Equatable, Decodable {
    /// `redis://[user@]host[:port][/db]` or `unix:///path/redis.sock[?db=N]` (no password in it:
    /// use `password`).
    public var url: String
    /// Put before every key and the stream's name, so several deployments can share one Redis.
    public var prefix: String
    /// The ACL user, when not in the URL.
    public var username: String?
    /// Where the password comes from (`{"env": …}` or `{"file": …}`), or `nil` for none.
    public var password: SecretSource?
    /// How long connecting and the handshake may take.
    public var connectTimeout: TimeInterval
    /// How long one command may take; past it the replica runs on its own levels for that call.
    public var commandTimeout: TimeInterval
    /// Connections for cache commands (one more reads the invalidation stream).
    public var poolSize: Int
    /// The invalidation stream's approximate cap (`XADD … MAXLEN ~`).
    public var streamMaxLength: Int
    /// How long a miss's fetch lease lasts before another replica may fetch the key.
    public var lease: TimeInterval

    /// Creates settings with the defaults for everything but the URL.
    public init(
        url: String, prefix: String = "rds:", username: String? = nil, password: SecretSource? = nil,
        connectTimeout: TimeInterval = 0.5, commandTimeout: TimeInterval = 0.1, poolSize: Int = 4,
        streamMaxLength: Int = 10_000, lease: TimeInterval = 5
    ) {
        self.url = url
        self.prefix = prefix
        self.username = username
        self.password = password
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.poolSize = poolSize
        self.streamMaxLength = streamMaxLength
        self.lease = lease
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case url, prefix, username, password, connectTimeout, commandTimeout, poolSize, streamMaxLength, lease
    }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = RedisSettings(url: "")
        url = try container.decode(String.self, forKey: .url)
        prefix = try container.decodeIfPresent(String.self, forKey: .prefix) ?? defaults.prefix
        username = try container.decodeIfPresent(String.self, forKey: .username)
        password = try container.decodeIfPresent(SecretSource.self, forKey: .password)
        connectTimeout = try container.decodeIfPresent(TimeInterval.self, forKey: .connectTimeout) ?? defaults.connectTimeout
        commandTimeout = try container.decodeIfPresent(TimeInterval.self, forKey: .commandTimeout) ?? defaults.commandTimeout
        poolSize = try container.decodeIntegerIfPresent(forKey: .poolSize) ?? defaults.poolSize
        streamMaxLength = try container.decodeIntegerIfPresent(forKey: .streamMaxLength) ?? defaults.streamMaxLength
        lease = try container.decodeIfPresent(TimeInterval.self, forKey: .lease) ?? defaults.lease
    }
}
