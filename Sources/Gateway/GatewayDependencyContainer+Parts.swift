import Foundation
import HTTP1
import RDS

extension GatewayDependencyContainer {
    /// The per-repository pieces of a container while it is being built: each repository is
    /// either built from its settings or taken over from the container being replaced.
    struct Parts {
        /// The level shared with other replicas, put below each built repository's own levels.
        let sharedCache: SharedCache?
        var routes: [RepositoryRoute] = []
        var factories: [String: RepositoryFactory<ResourceKey, Representation>] = [:]
        var memoryLevels: [String: MemoryDatastore<ResourceKey, Representation>] = [:]
        var diskLevels: [String: FileDatastore<ResourceKey, Representation>] = [:]
        var stores: [String: RepositoryStore<ResourceKey, Representation>] = [:]
        /// The idempotency keys of each read-write repository.
        var ledgers: [String: IdempotencyLedger] = [:]
        /// The durable outbox of each repository that queues writes.
        var outboxes: [String: WriteOutbox] = [:]
        /// The container being replaced, if any: a rebuilt repository takes over its outbox and
        /// idempotency ledger (their files must have one owner; their settings apply on restart).
        var previous: GatewayDependencyContainer?
        var diskProblems: [String: String] = [:]
        var refreshers: [String: BackgroundRefresher<ResourceKey, Representation>] = [:]
        var tagIndexes: [String: TagIndex] = [:]
        /// Each repository's shared (Redis) level, when there is one.
        var sharedLevels: [String: RedisDatastore<ResourceKey, Representation>] = [:]
        /// The refresh limiter of each service, shared by its repositories.
        var limiters: [String: RefreshLimiter] = [:]
        /// The process's timers.
        let scheduler: RefreshScheduler
        /// Repositories taken over from the previous container.
        var kept: Set<String> = []
        /// Repositories built afresh, in order.
        var built: [String] = []

        /// Takes the repository `name` over from `previous`, store and levels included.
        mutating func take(_ name: String, from previous: GatewayDependencyContainer) {
            guard let route = previous.route(named: name) else { return }
            routes.append(route)
            factories[name] = previous.factories[name]
            memoryLevels[name] = previous.memoryLevels[name]
            diskLevels[name] = previous.diskLevels[name]
            stores[name] = previous.stores[name]
            ledgers[name] = previous.ledgers[name]
            outboxes[name] = previous.outboxes[name]
            diskProblems[name] = previous.diskProblems[name]
            refreshers[name] = previous.refreshers[name]
            tagIndexes[name] = previous.tagIndexes[name]
            sharedLevels[name] = previous.sharedLevels[name]
            kept.insert(name)
        }

        /// Builds the repository `name` of `configuration`: its route, levels, store and service.
        /// - Throws: ``ConfigurationError`` when its service has no base URL or its route does not parse.
        mutating func build(
            _ name: String, configuration: GatewayConfiguration, baseURLs: [String: URL],
            credentials: [String: ServiceCredentials], clock: any ClockProvider, logger: any Logger,
            transport: any Transport, metrics: GatewayMetrics, readiness: Readiness
        ) throws(ConfigurationError) {
            guard let settings = configuration.repositories[name] else { return }
            let route: RepositoryRoute
            do {
                route = try RepositoryRoute(name: name, settings: settings, metrics: metrics)
            } catch {
                throw ConfigurationError(file: "<configuration>", keyPath: "repositories.\(name)", problem: "\(error)")
            }
            guard let service = configuration.services[settings.service], let baseURL = baseURLs[settings.service]
            else {
                throw ConfigurationError(
                    file: "<configuration>", keyPath: "repositories.\(name).service",
                    problem: "no base URL for the service \"\(settings.service)\"")
            }
            let share = max(1, configuration.repositories.count)
            let memory = configuration.cache.memory
            let level1 = MemoryDatastore<ResourceKey, Representation>(
                maxBytes: max(1, memory.maxBytes / share), maxEntries: max(1, memory.maxEntries / share))
            var level2: FileDatastore<ResourceKey, Representation>?
            if let disk = configuration.cache.disk {
                let folder = URL(fileURLWithPath: disk.path).appendingPathComponent(name, isDirectory: true)
                do {
                    level2 = try FileDatastore<ResourceKey, Representation>(
                        directory: folder, maxBytes: disk.maxBytes.map { max(1, $0 / share) }, clock: clock)
                    diskLevels[name] = level2
                } catch {
                    diskProblems[name] = ErrorChain(error).links.map(\.message).joined(separator: ": ")
                    logger.log(
                        .error, "disk_cache_unavailable", ["repository": .string(name), "path": .string(folder.path)])
                }
            }
            let tagField = settings.tags.field
            let shared = sharedCache.map { shared in
                RedisDatastore<ResourceKey, Representation>(
                    repository: name, shared: shared, clock: clock,
                    retention: max(settings.repositoryPolicy.staleWhileRevalidate, settings.repositoryPolicy.staleIfError),
                    tagsOf: { TagField.tags(in: $0, field: tagField) })
            }
            sharedLevels[name] = shared
            let datastore = RepositoryLevels(memory: level1, disk: level2, shared: shared, logger: logger)
            let tagIndex = TagIndex(maxEntries: settings.tags.maxEntries)
            tagIndexes[name] = tagIndex
            let tagging = TaggingDatastore(wrapping: datastore, index: tagIndex, field: settings.tags.field)
            let store = RepositoryStore(
                datastore: tagging, clock: clock, logger: logger,
                coordinator: sharedCache.map { RedisFetchCoordinator<ResourceKey>(repository: name, shared: $0) })
            if let sharedCache {
                sharedCache.register(name, target: Self.sharedTarget(memory: level1, disk: level2, store: store))
            }
            let httpService = Self.makeService(
                named: settings.service, settings: service, baseURL: baseURL, forwarding: settings,
                credentials: credentials[settings.service]?.providers ?? [], variants: route.variants,
                transport: transport,
                observer: UpstreamInstrumentation(service: settings.service, metrics: metrics, readiness: readiness),
                clock: clock)
            let factory = RepositoryFactory(
                name: name, store: store, service: httpService, policy: settings.repositoryPolicy)
            factories[name] = factory
            if let refresh = settings.refresh {
                let limiter = limiters[settings.service] ?? RefreshLimiter(
                    limit: Self.refreshConcurrency(of: settings.service, in: configuration))
                limiters[settings.service] = limiter
                refreshers[name] = BackgroundRefresher(
                    repository: factory.makeRepository(), policy: refresh.policy, scheduler: scheduler,
                    limiter: limiter)
            }
            memoryLevels[name] = level1
            stores[name] = store
            if let queue = settings.writes.queue, let disk = configuration.cache.disk {
                outboxes[name] =
                    previous?.outboxes[name]
                    ?? Self.outbox(
                        name, settings: queue, folder: URL(fileURLWithPath: disk.path), clock: clock, logger: logger)
            }
            if let ledger = previous?.ledgers[name], settings.isReadWrite {
                ledgers[name] = ledger
            } else if settings.isReadWrite {
                let folder = configuration.cache.disk.map {
                    URL(fileURLWithPath: $0.path).appendingPathComponent("\(name).idempotency", isDirectory: true)
                }
                ledgers[name] = IdempotencyLedger(
                    retention: settings.writes.idempotencyRetention, maxKeys: settings.writes.maxIdempotencyKeys,
                    folder: folder, clock: clock, logger: logger)
            }
            routes.append(route)
            built.append(name)
        }

        /// What another replica's announcement does here: the key leaves the local levels (never
        /// the shared one), and its subscribers see the new state once: the stored entry, read
        /// through from the shared level, or `.initialized` after a delete or purge.
        private static func sharedTarget(
            memory: MemoryDatastore<ResourceKey, Representation>, disk: FileDatastore<ResourceKey, Representation>?,
            store: RepositoryStore<ResourceKey, Representation>
        ) -> SharedCacheTarget {
            SharedCacheTarget(
                apply: { message in
                    if message.operation == .purgedAll {
                        await memory.deleteAll()
                        try? await disk?.deleteAll()
                        store.broadcasters.publishToAll(.initialized)
                        return
                    }
                    guard let key = try? ResourceKey(decodingBytes: message.key) else { return }
                    // A copy of this very version (read through before the news came) stays.
                    let current = memory.peek(key).flatMap {
                        message.operation == .stored
                            && InvalidationMessage.version(of: $0, keyBytes: message.key) == message.version ? $0 : nil
                    }
                    if current == nil {
                        await memory.delete(key)
                        try? await disk?.delete(key)
                    }
                    guard message.operation == .stored else {
                        store.broadcasters.publish(.initialized, for: key)
                        return
                    }
                    guard store.broadcasters.subscriberCount(for: key) > 0 else { return }
                    guard let entry = await Self.entry(current, or: key, in: store) else { return }
                    // Subscribers told of this state already (a read here loaded it) are not told twice.
                    if case .loaded(let value, _, let at)? = store.broadcasters.current(of: key), at == entry.storedAt,
                        value == entry.value
                    {
                        return
                    }
                    store.broadcasters.publish(.loaded(entry.value, origin: .cache, at: entry.storedAt), for: key)
                },
                flush: {
                    await memory.deleteAll()
                    try? await disk?.deleteAll()
                })
        }

        /// `current`, else the entry read through the repository's levels (from the shared one).
        private static func entry(
            _ current: CacheEntry<Representation>?, or key: ResourceKey,
            in store: RepositoryStore<ResourceKey, Representation>
        ) async -> CacheEntry<Representation>? {
            if let current { return current }
            return try? await store.datastore.get(key)
        }

        /// The outbox of `name`, journaled in `<folder>/<name>.writes/journal`; `nil` (logged) when
        /// the journal cannot be opened: writes are then forwarded only.
        private static func outbox(
            _ name: String, settings: WriteQueueSettings, folder: URL, clock: any ClockProvider, logger: any Logger
        ) -> WriteOutbox? {
            let path = folder.appendingPathComponent("\(name).writes", isDirectory: true)
                .appendingPathComponent("journal").path
            do {
                return try WriteOutbox(repository: name, path: path, settings: settings, clock: clock, logger: logger)
            } catch {
                logger.log(.error, "outbox_unavailable", ["repository": .string(name), "path": .string(path)])
                return nil
            }
        }

        /// The refreshes of `service` that may run at once: the smallest `refresh.concurrency` of
        /// its repositories.
        static func refreshConcurrency(of service: String, in configuration: GatewayConfiguration) -> Int {
            configuration.repositories.values.filter { $0.service == service }
                .compactMap { $0.refresh?.concurrency }.min() ?? 4
        }

        private static func makeService(
            named name: String, settings: ServiceSettings, baseURL: URL, forwarding repository: RepositorySettings,
            credentials: [any CredentialProvider], variants: VaryRegistry, transport: any Transport,
            observer: UpstreamInstrumentation, clock: any ClockProvider
        ) -> HTTPService {
            HTTPService(
                name: name, baseURL: baseURL, timeouts: settings.timeouts,
                defaultHeaders: HTTPHeaders(
                    settings.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }),
                credentials: credentials, forwardedHeaders: repository.forwardedHeaderList,
                transport: transport, observer: observer, clock: clock, policy: repository.freshnessPolicy,
                variants: variants)
        }
    }
}
