import Foundation
import HTTP1
import RDS

extension GatewayDependencyContainer {
    /// The per-repository pieces of a container while it is being built: each repository is
    /// either built from its settings or taken over from the container being replaced.
    struct Parts {
        var routes: [RepositoryRoute] = []
        var factories: [String: RepositoryFactory<ResourceKey, Representation>] = [:]
        var memoryLevels: [String: MemoryDatastore<ResourceKey, Representation>] = [:]
        var diskLevels: [String: FileDatastore<ResourceKey, Representation>] = [:]
        var stores: [String: RepositoryStore<ResourceKey, Representation>] = [:]
        var diskProblems: [String: String] = [:]
        var refreshers: [String: BackgroundRefresher<ResourceKey, Representation>] = [:]
        var tagIndexes: [String: TagIndex] = [:]
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
            diskProblems[name] = previous.diskProblems[name]
            refreshers[name] = previous.refreshers[name]
            tagIndexes[name] = previous.tagIndexes[name]
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
                route = try RepositoryRoute(name: name, settings: settings)
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
            var datastore: any Datastore<ResourceKey, Representation> = level1
            if let disk = configuration.cache.disk {
                let folder = URL(fileURLWithPath: disk.path).appendingPathComponent(name, isDirectory: true)
                do {
                    let level2 = try FileDatastore<ResourceKey, Representation>(
                        directory: folder, maxBytes: disk.maxBytes.map { max(1, $0 / share) })
                    datastore = TwoLevelDatastore(l1: level1, l2: level2, logger: logger)
                    diskLevels[name] = level2
                } catch {
                    diskProblems[name] = ErrorChain(error).links.map(\.message).joined(separator: ": ")
                    logger.log(
                        .error, "disk_cache_unavailable", ["repository": .string(name), "path": .string(folder.path)])
                }
            }
            let tagIndex = TagIndex(maxEntries: settings.tags.maxEntries)
            tagIndexes[name] = tagIndex
            let tagging = TaggingDatastore(wrapping: datastore, index: tagIndex, field: settings.tags.field)
            let store = RepositoryStore(datastore: tagging, clock: clock, logger: logger)
            let measured = InstrumentedTransport(
                wrapping: transport, service: settings.service, metrics: metrics, readiness: readiness)
            let httpService = Self.makeService(
                named: settings.service, settings: service, baseURL: baseURL, forwarding: settings,
                credentials: credentials[settings.service]?.providers ?? [], variants: route.variants,
                transport: measured, clock: clock)
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
            routes.append(route)
            built.append(name)
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
            clock: any ClockProvider
        ) -> HTTPService {
            HTTPService(
                name: name, baseURL: baseURL, timeouts: settings.timeouts,
                defaultHeaders: HTTPHeaders(
                    settings.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }),
                credentials: credentials, forwardedHeaders: repository.forwardedHeaderList,
                transport: transport, clock: clock, policy: repository.freshnessPolicy, variants: variants)
        }
    }
}
