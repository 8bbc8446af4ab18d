import Foundation

/// Where and how to reach Redis: endpoint, database, credentials, timeouts, pool size.
public struct RedisConfiguration: Sendable, Equatable {
    /// A TCP host and port, or a Unix-domain socket file.
    public enum Endpoint: Sendable, Equatable, CustomStringConvertible {
        /// `redis://host:port`
        case tcp(host: String, port: Int)
        /// `unix:///path/to/redis.sock`
        case unix(path: String)

        /// `host:port` or `unix:/path` (no credentials).
        public var description: String {
            switch self {
            case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            case .unix(let path): "unix:\(path)"
            }
        }
    }

    /// The server.
    public var endpoint: Endpoint
    /// The database `SELECT`ed after connecting (0 sends no `SELECT`).
    public var database: Int
    /// The ACL user (Redis 6+), or `nil` for the default user.
    public var username: String?
    /// The password, or `nil` for none.
    public var password: String?
    /// How long connecting (TCP or Unix, then the `HELLO`/`AUTH`/`SELECT` handshake) may take.
    public var connectTimeout: Duration
    /// How long one command (or one pipeline) may take once sent.
    public var commandTimeout: Duration
    /// Connections per client; commands queued on one connection are pipelined.
    public var poolSize: Int
    /// The largest bulk string accepted in a reply.
    public var maxReplyBytes: Int
    /// The most commands waiting per connection before new ones fail at once (`overloaded`).
    public var maxQueuedCommands: Int

    /// Parses `url` (`redis://[user[:password]@]host[:port][/db]` or `unix:///path[?db=N]`);
    /// credentials given here override those in the URL when not `nil`.
    /// - Throws: ``RedisError`` (`configuration`) naming what is wrong, never the password.
    public init(
        url: String, username: String? = nil, password: String? = nil, connectTimeout: Duration = .milliseconds(500),
        commandTimeout: Duration = .milliseconds(250), poolSize: Int = 2, maxReplyBytes: Int = 64 << 20,
        maxQueuedCommands: Int = 10_000
    ) throws(RedisError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw RedisError(.configuration, "The Redis URL is not a URL (expected redis://host:port or unix:///path).")
        }
        var database = 0
        switch scheme {
        case "redis":
            guard let host = components.host, !host.isEmpty else {
                throw RedisError(.configuration, "The Redis URL has no host (expected redis://host:port).")
            }
            let port = components.port ?? 6379
            guard (1...65535).contains(port) else { throw RedisError(.configuration, "The Redis port is out of range.") }
            endpoint = .tcp(host: host, port: port)
            let path = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            if !path.isEmpty {
                guard let number = Int(path), number >= 0 else {
                    throw RedisError(.configuration, "The Redis URL's path must be a database number, e.g. redis://host/2.")
                }
                database = number
            }
        case "unix":
            guard components.path.hasPrefix("/") else {
                throw RedisError(.configuration, "A unix:// Redis URL needs an absolute socket path (unix:///run/redis.sock).")
            }
            endpoint = .unix(path: components.path)
            if let value = components.queryItems?.first(where: { $0.name == "db" })?.value {
                guard let number = Int(value), number >= 0 else {
                    throw RedisError(.configuration, "The Redis URL's db parameter must be a database number.")
                }
                database = number
            }
        case "rediss":
            throw RedisError(.configuration, "rediss:// (TLS) is not supported; use redis:// on a private network or unix://.")
        default:
            throw RedisError(.configuration, "The Redis URL scheme must be redis:// or unix://, not \(scheme)://.")
        }
        self.database = database
        self.username = username ?? components.percentEncodedUser.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding }
        self.password = password ?? components.percentEncodedPassword?.removingPercentEncoding
        guard connectTimeout > .zero, commandTimeout > .zero, poolSize >= 1, maxReplyBytes > 0, maxQueuedCommands > 0
        else { throw RedisError(.configuration, "Redis timeouts, pool size and limits must be positive.") }
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.poolSize = poolSize
        self.maxReplyBytes = maxReplyBytes
        self.maxQueuedCommands = maxQueuedCommands
    }
}
