/// The whole gateway configuration, decoded from `Config/gateway.json`.
///
/// Every member has a default except the services and repositories themselves, so a file holds
/// only what differs. ``ConfigurationLoader`` reads, interpolates, overrides and validates it.
public struct GatewayConfiguration: Sendable, Equatable, Decodable {
    /// The listening socket, limits, timeouts and admin token.
    public var server: ServerSettings
    /// The cache sizes and the disk folder.
    public var cache: CacheSettings
    /// Log settings.
    public var logging: LoggingSettings
    /// The upstream services by name.
    public var services: [String: ServiceSettings]
    /// The repositories by name.
    public var repositories: [String: RepositorySettings]

    /// Creates a configuration.
    public init(
        server: ServerSettings = ServerSettings(), cache: CacheSettings = CacheSettings(),
        logging: LoggingSettings = LoggingSettings(), services: [String: ServiceSettings],
        repositories: [String: RepositorySettings]
    ) {
        self.server = server
        self.cache = cache
        self.logging = logging
        self.services = services
        self.repositories = repositories
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case server, cache, logging, services, repositories }

    /// Decodes the configuration, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        server = try container.decodeIfPresent(ServerSettings.self, forKey: .server) ?? ServerSettings()
        cache = try container.decodeIfPresent(CacheSettings.self, forKey: .cache) ?? CacheSettings()
        logging = try container.decodeIfPresent(LoggingSettings.self, forKey: .logging) ?? LoggingSettings()
        services = try container.decode([String: ServiceSettings].self, forKey: .services)
        repositories = try container.decode([String: RepositorySettings].self, forKey: .repositories)
    }

    /// The repository names in a stable order.
    public var repositoryNames: [String] { repositories.keys.sorted() }
}
