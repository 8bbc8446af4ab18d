/// The gateway's own listening socket and the limits it enforces on clients.
public struct ServerSettings: Sendable, Equatable, Decodable {
    /// The address to bind, e.g. `127.0.0.1` or `0.0.0.0`.
    public var host: String
    /// The port to bind; 0 picks a free one.
    public var port: Int
    /// The bearer token the admin endpoints require; `nil` (or `""` in the file) lets loopback
    /// clients in without one.
    public var adminToken: String?
    /// Size and connection limits.
    public var limits: ServerLimits
    /// Timeouts, in seconds.
    public var timeouts: ServerTimeouts
    /// When `true`, `/health/ready` stays 503 after a warm-up that could not load every key.
    public var requireWarmUp: Bool

    /// Creates server settings.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, adminToken: String? = nil,
        limits: ServerLimits = ServerLimits(), timeouts: ServerTimeouts = ServerTimeouts(), requireWarmUp: Bool = false
    ) {
        self.host = host
        self.port = port
        self.adminToken = adminToken
        self.limits = limits
        self.timeouts = timeouts
        self.requireWarmUp = requireWarmUp
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case host, port, adminToken, limits, timeouts, requireWarmUp }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ServerSettings()
        host = try container.decodeIfPresent(String.self, forKey: .host) ?? defaults.host
        port = try container.decodeIntegerIfPresent(forKey: .port) ?? defaults.port
        adminToken = try container.decodeIfPresent(String.self, forKey: .adminToken).flatMap { $0.isEmpty ? nil : $0 }
        limits = try container.decodeIfPresent(ServerLimits.self, forKey: .limits) ?? defaults.limits
        timeouts = try container.decodeIfPresent(ServerTimeouts.self, forKey: .timeouts) ?? defaults.timeouts
        requireWarmUp = try container.decodeIfPresent(Bool.self, forKey: .requireWarmUp) ?? defaults.requireWarmUp
    }
}
