import Foundation
import Redis

/// Checks what decoding cannot: numbers in range, URLs, templates, service references and route
/// collisions. Throws the first problem found, in a stable order (server, cache, services,
/// repositories, each by name).
struct ConfigurationValidator {
    /// The file named in errors.
    let file: String

    /// Paths the gateway answers itself; no repository route may match them.
    static let reservedRoutes = [
        "/health", "/health/ready", "/metrics", "/admin/{rest...}", "/__demo/{rest...}", "/hooks/{rest...}", "/events",
    ]

    func validate(_ configuration: GatewayConfiguration) throws(ConfigurationError) {
        try validateServer(configuration.server)
        try validateCache(configuration.cache)
        for name in configuration.services.keys.sorted() {
            if let service = configuration.services[name] { try validateService(service, path: "services.\(name)") }
        }
        guard !configuration.repositories.isEmpty else {
            throw fail("repositories", "expected at least one repository")
        }
        for name in configuration.repositoryNames {
            if let repository = configuration.repositories[name] {
                try validateRepository(repository, name: name, services: configuration.services)
                if repository.writes.queue != nil, configuration.cache.disk == nil {
                    throw fail("repositories.\(name).writes.queue", "needs cache.disk: the outbox journal is a file")
                }
            }
        }
        try validateRouteCollisions(configuration.repositories)
    }

    func fail(_ keyPath: String, _ problem: String) -> ConfigurationError {
        ConfigurationError(file: file, keyPath: keyPath, problem: problem)
    }

    /// The longest duration any timeout may be, in seconds (a day).
    static let maxTimeout: Double = 86_400
    /// The largest cache bound, in bytes (1 TiB).
    static let maxCacheBytes = 1_099_511_627_776
    /// The longest freshness or staleness lifetime, in seconds (a year).
    static let maxLifetime: Double = 31_536_000

    /// Checks `0 < value <= max` (seconds by default up to a day).
    func requirePositive(_ value: Double, _ keyPath: String, max: Double = maxTimeout) throws(ConfigurationError) {
        guard value > 0, value <= max, value.isFinite else {
            throw fail(
                keyPath, "expected a number above 0 and at most \(Self.format(max)), found \(Self.format(value))")
        }
    }

    /// Checks `0 <= value <= max` (seconds by default up to a day).
    func requireNonNegative(_ value: Double, _ keyPath: String, max: Double = maxTimeout) throws(ConfigurationError) {
        guard value >= 0, value <= max, value.isFinite else {
            throw fail(keyPath, "expected a number from 0 to \(Self.format(max)), found \(Self.format(value))")
        }
    }

    /// Checks a size or count lies in `range`.
    func requireCount(_ value: Int, in range: ClosedRange<Int>, _ keyPath: String) throws(ConfigurationError) {
        guard range.contains(value) else {
            throw fail(keyPath, "expected an integer from \(range.lowerBound) to \(range.upperBound), found \(value)")
        }
    }

    /// `30` for whole numbers, `0.5` or `1e+19` otherwise.
    static func format(_ value: Double) -> String {
        value.isFinite && value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    func requireHeaderName(_ name: String, _ keyPath: String) throws(ConfigurationError) {
        let token = "!#$%&'*+-.^_`|~"
        guard !name.isEmpty,
            name.unicodeScalars.allSatisfy({
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || token.unicodeScalars.contains($0))
            })
        else { throw fail(keyPath, "expected a header name (letters, digits and !#$%&'*+-.^_`|~), found \"\(name)\"") }
    }

    private func validateServer(_ server: ServerSettings) throws(ConfigurationError) {
        guard !server.host.isEmpty else { throw fail("server.host", "expected an address such as 127.0.0.1") }
        guard (0...65_535).contains(server.port) else {
            throw fail("server.port", "expected a port number from 0 to 65535, found \(server.port)")
        }
        try requireCount(server.limits.maxHeaderBytes, in: 1_024...1_048_576, "server.limits.maxHeaderBytes")
        try requireCount(server.limits.maxBodyBytes, in: 1...1_073_741_824, "server.limits.maxBodyBytes")
        try requireCount(server.limits.maxConnections, in: 1...1_048_576, "server.limits.maxConnections")
        try requirePositive(server.limits.sseMaxLag, "server.limits.sseMaxLag")
        try requirePositive(server.timeouts.idle, "server.timeouts.idle")
        try requirePositive(server.timeouts.request, "server.timeouts.request")
        try requireNonNegative(server.timeouts.shutdownGrace, "server.timeouts.shutdownGrace")
    }

    private func validateCache(_ cache: CacheSettings) throws(ConfigurationError) {
        try requireCount(cache.memory.maxBytes, in: 1...Self.maxCacheBytes, "cache.memory.maxBytes")
        try requireCount(cache.memory.maxEntries, in: 1...100_000_000, "cache.memory.maxEntries")
        if let disk = cache.disk, disk.path.isEmpty {
            throw fail("cache.disk.path", "expected a folder path, or no disk section for a memory-only cache")
        }
        if let bound = cache.disk?.maxBytes {
            try requireCount(bound, in: 1...Self.maxCacheBytes, "cache.disk.maxBytes")
        }
        try requireCount(cache.inFlightBodyBytes, in: 1_048_576...(1 << 40), "cache.inFlightBodyBytes")
        if let redis = cache.shared?.redis { try validateRedis(redis, path: "cache.shared.redis") }
    }

    private func validateRedis(_ redis: RedisSettings, path: String) throws(ConfigurationError) {
        let configuration: RedisConfiguration
        do {
            configuration = try RedisConfiguration(url: redis.url)
        } catch {
            throw fail(path + ".url", error.message)
        }
        guard configuration.password == nil else {
            throw fail(path + ".url", "expected no password in the URL; use \"password\": {\"env\": …} or {\"file\": …}")
        }
        guard !redis.prefix.isEmpty, redis.prefix.count <= 64, !redis.prefix.contains(where: \.isWhitespace) else {
            throw fail(path + ".prefix", "expected 1 to 64 characters without spaces, e.g. \"rds:\"")
        }
        if let username = redis.username, username.isEmpty {
            throw fail(path + ".username", "expected an ACL user name, or no username key for the default user")
        }
        try requirePositive(redis.connectTimeout, path + ".connectTimeout", max: 60)
        try requirePositive(redis.commandTimeout, path + ".commandTimeout", max: 60)
        try requireCount(redis.poolSize, in: 1...64, path + ".poolSize")
        try requireCount(redis.streamMaxLength, in: 100...10_000_000, path + ".streamMaxLength")
        try requirePositive(redis.lease, path + ".lease", max: 600)
    }

    private func validateService(_ service: ServiceSettings, path: String) throws(ConfigurationError) {
        try validateBaseURL(service.baseURL, path: path + ".baseURL")
        if let changes = service.changes { try validateChangesURL(changes.url, path: path + ".changes.url") }
        let timeouts = service.timeouts
        try requirePositive(timeouts.connect, path + ".timeouts.connect")
        try requirePositive(timeouts.firstByte, path + ".timeouts.firstByte")
        try requirePositive(timeouts.total, path + ".timeouts.total")
        guard timeouts.connect <= timeouts.total, timeouts.firstByte <= timeouts.total else {
            throw fail(path + ".timeouts", "expected connect and firstByte to be at most total")
        }
        for name in service.headers.keys.sorted() { try requireHeaderName(name, "\(path).headers.\(name)") }
        if let apiKey = service.apiKey { try validateAPIKey(apiKey, path: path + ".apiKey") }
        if let auth = service.auth { try validateAuth(auth, path: path + ".auth") }
    }

    private func validateBaseURL(_ text: String, path: String) throws(ConfigurationError) {
        if text == ServiceSettings.embeddedDemo { return }
        // The value itself is never echoed: it may hold an interpolated secret.
        let expected = "expected http://host[:port][/prefix], https://… or \(ServiceSettings.embeddedDemo)"
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { throw fail(path, expected) }
        guard url.query == nil, url.fragment == nil, url.user == nil, url.password == nil else {
            throw fail(path, "\(expected) without query, fragment or credentials")
        }
    }

    private func validateAPIKey(_ apiKey: APIKeySettings, path: String) throws(ConfigurationError) {
        switch (apiKey.env, apiKey.file) {
        case (let name?, nil):
            guard !name.isEmpty else { throw fail(path + ".env", "expected the name of an environment variable") }
        case (nil, let file?):
            guard !file.isEmpty else { throw fail(path + ".file", "expected the path of a file holding the key") }
        default:
            throw fail(path, "expected exactly one of \"env\" or \"file\"")
        }
        switch (apiKey.header, apiKey.query) {
        case (let header?, nil): try requireHeaderName(header, path + ".header")
        case (nil, let query?):
            guard !query.isEmpty else { throw fail(path + ".query", "expected a query parameter name") }
        default:
            throw fail(path, "expected exactly one of \"header\" or \"query\"")
        }
    }
}
