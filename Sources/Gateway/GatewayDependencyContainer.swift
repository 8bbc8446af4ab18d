import Foundation
import HTTP1
import RDS
import Synchronization

/// The composition root's product: one per process, built from the configuration by
/// ``Bootstrap/makeContainer(configuration:clock:logger:transport:)``.
///
/// It owns every datastore (one memory level per repository, in front of one disk folder per
/// repository when the configuration has a disk cache), the ``RepositoryStore`` of each
/// repository (broadcasters, single-flight table), the services, the clock, the logger, the
/// metrics, the readiness state, each service's credential providers (an OAuth2 token is fetched
/// and refreshed in the background from construction on) and the embedded demo upstream, if the
/// configuration uses it.
/// ``makeRepository(named:)`` is synchronous and cheap: call it once per request.
public final class GatewayDependencyContainer: Sendable {
    /// The configuration it was built from (embedded base URLs already resolved).
    public let configuration: GatewayConfiguration
    /// The time source of every repository.
    public let clock: any ClockProvider
    /// The process's logger.
    public let logger: any Logger
    /// The repository routes, by repository name in sorted order.
    public let routes: [RepositoryRoute]
    /// Each route (in the order of ``routes``) with the parts its requests use, found by the
    /// first segment of its template.
    let routeTable: RouteTable
    /// The process's metrics.
    public let metrics: GatewayMetrics
    /// What `/health/ready` reports.
    public let readiness: Readiness
    /// The last problem answers with their error chains (kept across reloads).
    public let recentProblems: RecentProblems
    /// The demo upstream running in this process, when a service uses `embedded:demo`.
    public let embeddedDemo: EmbeddedDemo?
    /// Every published state, numbered and buffered for the Server-Sent Events subscribers.
    let events: EventHub
    /// The bytes held for upstream answers still arriving, when the transport counts them.
    public let inFlightBodies: HTTPBodyBudget?
    /// The level shared with the other replicas (`cache.shared.redis`), or `nil`.
    public let sharedCache: SharedCache?

    let factories: [String: RepositoryFactory<ResourceKey, Representation>]
    let memoryLevels: [String: MemoryDatastore<ResourceKey, Representation>]
    let diskLevels: [String: FileDatastore<ResourceKey, Representation>]
    let stores: [String: RepositoryStore<ResourceKey, Representation>]
    /// The `Idempotency-Key` ledger of each read-write repository (on disk beside its cache folder,
    /// `<disk>/<name>.idempotency`, when the cache has a disk level).
    let ledgers: [String: IdempotencyLedger]
    /// The durable outbox of each repository with `writes.queue` (`<disk>/<name>.writes/journal`),
    /// delivering from construction on.
    let outboxes: [String: WriteOutbox]
    /// Repositories whose disk folder could not be opened, with the reason; they run memory-only.
    public let diskProblems: [String: String]
    /// The repositories taken over unchanged from the container this one replaced.
    public let keptRepositories: Set<String>
    let transport: any Transport
    /// The credential providers of each service, by service name.
    let credentials: [String: ServiceCredentials]
    /// The process's timers for background refreshes (kept across reloads).
    public let scheduler: RefreshScheduler
    /// The background refreshers of the repositories that have `refresh` settings.
    let refreshers: [String: BackgroundRefresher<ResourceKey, Representation>]
    /// The tag index of each repository.
    let tagIndexes: [String: TagIndex]
    /// Each repository's shared (Redis) level, when `cache.shared` is set.
    let sharedLevels: [String: RedisDatastore<ResourceKey, Representation>]
    /// The followers of the services' change streams (started with the container).
    let changeFollowers = Mutex<[UpstreamChangeFollower]>([])

    /// Builds every repository of `configuration`.
    /// - Parameters:
    ///   - configuration: A validated configuration.
    ///   - baseURLs: The base URL of each service, by name (embedded ones already resolved).
    ///   - embeddedDemo: The running demo upstream, if a service uses it.
    ///   - clock: The time source.
    ///   - logger: The logger.
    ///   - transport: Carries every upstream call (measured per service).
    ///   - inFlightBodies: The budget `transport` holds arriving answers in, if any (for reports).
    ///   - previous: The container this one replaces (a configuration reload): its metrics,
    ///     readiness and event fan-out carry on, and each repository whose settings and service are
    ///     unchanged keeps its store (cached entries, subscribers, fetches in flight) and its levels.
    /// - Throws: ``ConfigurationError`` when a service has no base URL, a template does not parse
    ///   or the shared cache's settings cannot be used.
    public init(
        configuration: GatewayConfiguration, baseURLs: [String: URL], embeddedDemo: EmbeddedDemo? = nil,
        clock: any ClockProvider, logger: any Logger, transport: any Transport, inFlightBodies: HTTPBodyBudget? = nil,
        reusing previous: GatewayDependencyContainer? = nil
    ) throws(ConfigurationError) {
        self.inFlightBodies = inFlightBodies
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.embeddedDemo = embeddedDemo
        self.transport = transport
        self.events = previous?.events ?? EventHub()
        let metrics = previous?.metrics ?? GatewayMetrics()
        let readiness =
            previous?.readiness
            ?? Readiness(
                cacheDirectory: configuration.cache.disk.map { URL(fileURLWithPath: $0.path) },
                services: configuration.services.keys.sorted(), requireWarmUp: configuration.server.requireWarmUp,
                clock: clock)
        readiness.track(services: configuration.services.keys.sorted())
        self.metrics = metrics
        if let inFlightBodies, previous == nil { metrics.observeInFlightBodyBytes { inFlightBodies.bytesInUse } }
        self.readiness = readiness
        self.recentProblems = previous?.recentProblems ?? RecentProblems(clock: clock)
        let credentials = Self.makeCredentials(
            configuration, previous: previous, clock: clock, logger: logger, transport: transport, metrics: metrics)
        self.credentials = credentials
        let sharedCache = try Self.makeSharedCache(
            configuration, previous: previous, logger: logger, metrics: metrics, readiness: readiness)
        self.sharedCache = sharedCache
        let scheduler = previous?.scheduler ?? RefreshScheduler(clock: clock)
        self.scheduler = scheduler
        var parts = Parts(sharedCache: sharedCache, scheduler: scheduler)
        parts.previous = previous
        for name in configuration.repositoryNames {
            if let previous, previous.isUnchanged(name, in: configuration) {
                parts.take(name, from: previous)
            } else {
                try parts.build(
                    name, configuration: configuration, baseURLs: baseURLs, credentials: credentials, clock: clock,
                    logger: logger, transport: transport, metrics: metrics, readiness: readiness)
            }
        }
        for route in previous?.routes ?? [] where !parts.kept.contains(route.name) {
            if configuration.repositories[route.name] == nil { sharedCache?.forget(route.name) }
            metrics.forgetRepository(route.name)
            readiness.forgetDisk(repository: route.name)
        }
        for name in parts.built {
            Self.observe(name, parts: parts, disk: configuration.cache.disk != nil, metrics: metrics, readiness: readiness)
        }
        self.routes = parts.routes
        let routeResources = parts.routes.map { route in
            RouteResources(
                route: route, repository: parts.factories[route.name]?.makeRepository(),
                outbox: parts.outboxes[route.name], refresher: parts.refreshers[route.name])
        }
        self.routeTable = RouteTable(routeResources)
        self.factories = parts.factories
        self.memoryLevels = parts.memoryLevels
        self.diskLevels = parts.diskLevels
        self.diskProblems = parts.diskProblems
        self.stores = parts.stores
        self.ledgers = parts.ledgers
        self.outboxes = parts.outboxes
        self.keptRepositories = parts.kept
        self.refreshers = parts.refreshers
        self.tagIndexes = parts.tagIndexes
        self.sharedLevels = parts.sharedLevels
        startCredentials()
        for name in parts.built {
            followWarmUp(name)
            rebuildTagIndex(name)
            stores[name]?.broadcasters.observe(
                { [events] key, state in events.publish(key, state) }, wants: { [events] key in events.follows(key) })
            stores[name]?.broadcasters.observeTransitions { [events] key, event in events.announce(key, event) }
            stores[name]?.writes.observe { [events] key, change in events.publish(key, change) }
        }
        let routes = routes
        events.showPaths { key in routes.first { $0.name == key.repository }?.clientPath(of: key) ?? key.target }
        if previous == nil { Self.beat(events, on: scheduler, every: 15) }
        let followers = makeChangeFollowers()
        changeFollowers.withLock { $0 = followers }
        for follower in followers { follower.start() }
        for (name, outbox) in previous?.outboxes ?? [:] where parts.outboxes[name] !== outbox {
            outbox.stop()
            readiness.forgetWriteQueue(repository: name)
        }
        startOutboxes()
        sharedCache?.start()
    }

    /// The shared level of `previous` when it has one (it outlives reloads; changing its settings
    /// needs a restart), else a new one when the configuration asks for it.
    private static func makeSharedCache(
        _ configuration: GatewayConfiguration, previous: GatewayDependencyContainer?, logger: any Logger,
        metrics: GatewayMetrics, readiness: Readiness
    ) throws(ConfigurationError) -> SharedCache? {
        if let kept = previous?.sharedCache { return kept }
        guard let settings = configuration.cache.shared?.redis else { return nil }
        let shared = try SharedCache(settings: settings, logger: logger)
        metrics.sharedCache.observe { shared.statistics }
        readiness.observeSharedCache { shared.statistics }
        return shared
    }

    /// Starts (or hands the current repository to) the delivery loop of every outbox.
    private func startOutboxes() {
        for (name, outbox) in outboxes {
            guard let factory = factories[name] else { continue }
            let delivery = WriteDelivery(outbox: outbox, metrics: metrics.writes) { factory.makeRepository() }
            metrics.writes.observe(outbox)
            readiness.observeWriteQueue(outbox)
            outbox.run { await delivery.deliver($0) }
        }
    }

    /// Stops every outbox's delivery loop (on shutdown).
    func stopOutboxes() {
        for outbox in outboxes.values { outbox.stop() }
    }

    /// `true` when the repository `name` of this container can serve `configuration` as it is:
    /// its settings, its service's settings and the cache settings are the same.
    func isUnchanged(_ name: String, in configuration: GatewayConfiguration) -> Bool {
        guard let settings = configuration.repositories[name], settings == self.configuration.repositories[name],
            configuration.services[settings.service] == self.configuration.services[settings.service],
            configuration.cache == self.configuration.cache, factories[name] != nil
        else { return false }
        return true
    }

    private static func observe(
        _ name: String, parts: Parts, disk: Bool, metrics: GatewayMetrics, readiness: Readiness
    ) {
        metrics.registerRepository(name)
        if disk {
            let level2 = parts.diskLevels[name]
            let statistics: @Sendable () -> DatastoreStatistics? = { level2?.statistics }
            metrics.observeDisk(repository: name, statistics: statistics)
            readiness.observeDisk(repository: name, statistics: statistics)
        }
        if let level1 = parts.memoryLevels[name] {
            metrics.observeCache(repository: name, level: "memory") { level1.statistics }
        }
        if let level2 = parts.diskLevels[name] {
            metrics.observeCache(repository: name, level: "disk") { level2.statistics }
        }
        if let store = parts.stores[name] {
            metrics.observeCoalescedWaiters(repository: name) { store.coalescedWaiters }
        }
    }

    /// A repository over the shared store of `name`; `nil` for an unknown name. Synchronous and cheap.
    public func makeRepository(named name: String) -> Repository<ResourceKey, Representation>? {
        factories[name]?.makeRepository()
    }

    /// The route of the repository `name`.
    public func route(named name: String) -> RepositoryRoute? { routes.first { $0.name == name } }

    /// The memory level's entries, bytes and evictions of the repository `name`.
    public func memoryStatistics(named name: String) -> DatastoreStatistics? { memoryLevels[name]?.statistics }

    /// The disk level's entry files, bytes, evictions and write failures of the repository `name`;
    /// `nil` when it has no disk level (none configured, or its folder could not be opened).
    public func diskStatistics(named name: String) -> DatastoreStatistics? { diskLevels[name]?.statistics }

    /// The health of the disk level of the repository `name`; `nil` when no disk cache is configured.
    public func diskHealth(named name: String) -> DiskLevelHealth? {
        guard configuration.cache.disk != nil else { return nil }
        return DiskLevelHealth(repository: name, statistics: diskStatistics(named: name))
    }
}
