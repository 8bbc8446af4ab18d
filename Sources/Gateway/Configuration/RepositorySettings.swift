import Foundation

/// One repository: the route clients call, the service and upstream path behind it, the methods
/// it allows, its caching policy and which parts of a request make up the cache key.
public struct RepositorySettings: Sendable, Equatable, Decodable {
    /// The route template, e.g. `/weather/{city}` or `/api/{path...}`.
    public var route: String
    /// The name of the service in `services`.
    public var service: String
    /// The upstream path template, filled with the route's captures; defaults to the route.
    public var upstreamPath: String
    /// The allowed methods; any of `PUT`, `PATCH`, `POST`, `DELETE` makes the repository read-write.
    public var methods: [String]
    /// `cache-first` or `network-first`.
    public var policy: RepositoryMode
    /// The shortest freshness lifetime, in seconds, whatever the upstream says.
    public var minTTL: TimeInterval
    /// The longest freshness lifetime, in seconds.
    public var maxTTL: TimeInterval
    /// The lifetime when the upstream gives none, in seconds.
    public var defaultTTL: TimeInterval
    /// How long a stale value is served while it is refreshed in the background, in seconds.
    public var staleWhileRevalidate: TimeInterval
    /// How long a stale value is served when the upstream fails, in seconds.
    public var staleIfError: TimeInterval
    /// The fraction of the lifetime after which a hit triggers a background refresh, if any.
    public var refreshAhead: Double?
    /// The longest a fetch may take before it fails, in seconds.
    public var fetchDeadline: TimeInterval
    /// Request paths (with their query, if any) loaded at start-up.
    public var warmUp: [String]
    /// Which query parameters and headers take part in the cache key.
    public var cacheKey: CacheKeySettings
    /// The request headers forwarded upstream (they key the cache too); none by default;
    /// `Cookie` and `Authorization` only when listed here. `"*"` (decoded as `["*"]`, may be
    /// listed with names) forwards every other end-to-end field too, without keying on it.
    public var forwardHeaders: [String]
    /// A `Cache-Control` value sent downstream instead of the upstream's, if any (the gateway's
    /// own storage still follows the upstream's).
    public var downstreamCacheControl: String?
    /// What the client gets when the upstream answers 5xx and nothing stored may stand in.
    public var upstreamErrors: UpstreamErrorMode
    /// The targeted cache-control field this cache obeys over `Cache-Control` and removes from
    /// answers (RFC 9213): `CDN-Cache-Control` by default, e.g. `Surrogate-Control`.
    public var targetedCacheControl: String
    /// The heuristic lifetime (RFC 9111 §4.2.2) as a fraction of the time since `Last-Modified`
    /// for answers without explicit freshness, e.g. `0.1`; off (`defaultTTL` applies) when `nil`.
    public var heuristicFraction: Double?
    /// How writes are handled: idempotency keys and their retention.
    public var writes: WriteSettings
    /// Background refresh without traffic, if any.
    public var refresh: RefreshSettings?
    /// The webhook at `POST /hooks/NAME`, if any (none without a secret).
    public var hook: HookSettings?
    /// Where the upstream names an answer's tags.
    public var tags: TagSettings

    /// Creates repository settings.
    public init(
        route: String, service: String, upstreamPath: String? = nil, methods: [String] = ["GET", "HEAD"],
        policy: RepositoryMode = .cacheFirst, minTTL: TimeInterval = 0, maxTTL: TimeInterval = 86_400,
        defaultTTL: TimeInterval = 60, staleWhileRevalidate: TimeInterval = 0, staleIfError: TimeInterval = 0,
        refreshAhead: Double? = nil, fetchDeadline: TimeInterval = 30, warmUp: [String] = [],
        cacheKey: CacheKeySettings = CacheKeySettings(), forwardHeaders: [String] = [],
        downstreamCacheControl: String? = nil, upstreamErrors: UpstreamErrorMode = .problem,
        targetedCacheControl: String = "CDN-Cache-Control", heuristicFraction: Double? = nil,
        writes: WriteSettings = WriteSettings(),
        refresh: RefreshSettings? = nil, hook: HookSettings? = nil, tags: TagSettings = TagSettings()
    ) {
        self.route = route
        self.service = service
        self.upstreamPath = upstreamPath ?? route
        self.methods = methods
        self.policy = policy
        self.minTTL = minTTL
        self.maxTTL = maxTTL
        self.defaultTTL = defaultTTL
        self.staleWhileRevalidate = staleWhileRevalidate
        self.staleIfError = staleIfError
        self.refreshAhead = refreshAhead
        self.fetchDeadline = fetchDeadline
        self.warmUp = warmUp
        self.cacheKey = cacheKey
        self.forwardHeaders = forwardHeaders
        self.downstreamCacheControl = downstreamCacheControl
        self.upstreamErrors = upstreamErrors
        self.targetedCacheControl = targetedCacheControl
        self.heuristicFraction = heuristicFraction
        self.writes = writes
        self.refresh = refresh
        self.hook = hook
        self.tags = tags
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case route, service, upstreamPath, methods, policy, minTTL, maxTTL, defaultTTL, staleWhileRevalidate
        case staleIfError, refreshAhead, fetchDeadline, warmUp, cacheKey, forwardHeaders
        case downstreamCacheControl, upstreamErrors, targetedCacheControl, heuristicFraction, writes
        case refresh, hook, tags
    }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let route = try container.decode(String.self, forKey: .route)
        let defaults = RepositorySettings(route: route, service: "")
        self.route = route
        service = try container.decode(String.self, forKey: .service)
        upstreamPath = try container.decodeIfPresent(String.self, forKey: .upstreamPath) ?? route
        methods = try container.decodeIfPresent([String].self, forKey: .methods) ?? defaults.methods
        policy = try container.decodeIfPresent(RepositoryMode.self, forKey: .policy) ?? defaults.policy
        minTTL = try container.decodeIfPresent(TimeInterval.self, forKey: .minTTL) ?? defaults.minTTL
        maxTTL = try container.decodeIfPresent(TimeInterval.self, forKey: .maxTTL) ?? defaults.maxTTL
        defaultTTL = try container.decodeIfPresent(TimeInterval.self, forKey: .defaultTTL) ?? defaults.defaultTTL
        staleWhileRevalidate =
            try container.decodeIfPresent(TimeInterval.self, forKey: .staleWhileRevalidate)
            ?? defaults.staleWhileRevalidate
        staleIfError = try container.decodeIfPresent(TimeInterval.self, forKey: .staleIfError) ?? defaults.staleIfError
        refreshAhead = try container.decodeIfPresent(Double.self, forKey: .refreshAhead)
        fetchDeadline =
            try container.decodeIfPresent(TimeInterval.self, forKey: .fetchDeadline) ?? defaults.fetchDeadline
        warmUp = try container.decodeIfPresent([String].self, forKey: .warmUp) ?? []
        cacheKey = try container.decodeIfPresent(CacheKeySettings.self, forKey: .cacheKey) ?? defaults.cacheKey
        if let all = try? container.decodeIfPresent(String.self, forKey: .forwardHeaders) {
            guard all == "*" else {
                throw DecodingError.dataCorruptedError(
                    forKey: .forwardHeaders, in: container,
                    debugDescription: "expected \"*\" or a list of header names")
            }
            forwardHeaders = ["*"]
        } else {
            forwardHeaders =
                try container.decodeIfPresent([String].self, forKey: .forwardHeaders) ?? defaults.forwardHeaders
        }
        downstreamCacheControl = try container.decodeIfPresent(String.self, forKey: .downstreamCacheControl)
        upstreamErrors =
            try container.decodeIfPresent(UpstreamErrorMode.self, forKey: .upstreamErrors) ?? defaults.upstreamErrors
        targetedCacheControl =
            try container.decodeIfPresent(String.self, forKey: .targetedCacheControl) ?? defaults.targetedCacheControl
        heuristicFraction = try container.decodeIfPresent(Double.self, forKey: .heuristicFraction)
        writes = try container.decodeIfPresent(WriteSettings.self, forKey: .writes) ?? defaults.writes
        refresh = try container.decodeIfPresent(RefreshSettings.self, forKey: .refresh)
        hook = try container.decodeIfPresent(HookSettings.self, forKey: .hook)
        tags = try container.decodeIfPresent(TagSettings.self, forKey: .tags) ?? defaults.tags
    }

    /// `true` when any write method (`PUT`, `PATCH`, `POST`, `DELETE`) is allowed.
    public var isReadWrite: Bool { methods.contains { Self.writeMethods.contains($0) } }

    /// The tag field removed from client answers: ``TagSettings/field`` unless exposed.
    public var hiddenTagField: String? { tags.expose ? nil : tags.field }

    /// The methods that make a repository read-write.
    static let writeMethods: Set<String> = ["PUT", "PATCH", "POST", "DELETE"]
}
