import Foundation
import HTTP1
import RDS

/// The composition root's product: one per process, built from the configuration by
/// ``Bootstrap/makeContainer(configuration:clock:logger:transport:)``.
///
/// It owns every datastore (one memory level per repository, in front of one disk folder per
/// repository when the configuration has a disk cache), the ``RepositoryStore`` of each
/// repository (broadcasters, single-flight table), the services, the clock, the logger, the
/// metrics, the readiness state and the embedded demo upstream, if the configuration uses it.
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
    /// The process's metrics.
    public let metrics: GatewayMetrics
    /// What `/health/ready` reports.
    public let readiness: Readiness
    /// The demo upstream running in this process, when a service uses `embedded:demo`.
    public let embeddedDemo: EmbeddedDemo?

    private let factories: [String: RepositoryFactory<ResourceKey, Representation>]
    private let memoryLevels: [String: MemoryDatastore<ResourceKey, Representation>]
    private let diskLevels: [String: FileDatastore<ResourceKey, Representation>]
    /// Repositories whose disk folder could not be opened, with the reason; they run memory-only.
    public let diskProblems: [String: String]

    /// Builds every repository of `configuration`.
    /// - Parameters:
    ///   - configuration: A validated configuration.
    ///   - baseURLs: The base URL of each service, by name (embedded ones already resolved).
    ///   - embeddedDemo: The running demo upstream, if a service uses it.
    ///   - clock: The time source.
    ///   - logger: The logger.
    ///   - transport: Carries every upstream call (measured per service).
    /// - Throws: ``ConfigurationError`` when a service has no base URL or a template does not parse.
    public init(
        configuration: GatewayConfiguration, baseURLs: [String: URL], embeddedDemo: EmbeddedDemo? = nil,
        clock: any ClockProvider, logger: any Logger, transport: any Transport
    ) throws(ConfigurationError) {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.embeddedDemo = embeddedDemo
        let metrics = GatewayMetrics()
        let readiness = Readiness(
            cacheDirectory: configuration.cache.disk.map { URL(fileURLWithPath: $0.path) },
            services: configuration.services.keys.sorted(), clock: clock)
        self.metrics = metrics
        self.readiness = readiness
        let names = configuration.repositoryNames
        let share = max(1, names.count)
        let memory = configuration.cache.memory
        var routes: [RepositoryRoute] = []
        var factories: [String: RepositoryFactory<ResourceKey, Representation>] = [:]
        var memoryLevels: [String: MemoryDatastore<ResourceKey, Representation>] = [:]
        var diskLevels: [String: FileDatastore<ResourceKey, Representation>] = [:]
        var diskProblems: [String: String] = [:]
        for name in names {
            guard let settings = configuration.repositories[name] else { continue }
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
            let level1 = MemoryDatastore<ResourceKey, Representation>(
                maxBytes: max(1, memory.maxBytes / share), maxEntries: max(1, memory.maxEntries / share))
            let datastore: any Datastore<ResourceKey, Representation>
            if let disk = configuration.cache.disk {
                let folder = URL(fileURLWithPath: disk.path).appendingPathComponent(name, isDirectory: true)
                do {
                    let level2 = try FileDatastore<ResourceKey, Representation>(
                        directory: folder, maxBytes: disk.maxBytes.map { max(1, $0 / share) })
                    datastore = TwoLevelDatastore(l1: level1, l2: level2, logger: logger)
                    diskLevels[name] = level2
                    metrics.observeCache(repository: name, level: "disk") { level2.statistics }
                } catch {
                    diskProblems[name] = ErrorChain(error).links.map(\.message).joined(separator: ": ")
                    logger.log(
                        .error, "disk_cache_unavailable", ["repository": .string(name), "path": .string(folder.path)])
                    datastore = level1
                }
            } else {
                datastore = level1
            }
            let store = RepositoryStore(datastore: datastore, clock: clock, logger: logger)
            let measured = InstrumentedTransport(
                wrapping: transport, service: settings.service, metrics: metrics, readiness: readiness)
            let httpService = Self.makeService(
                named: settings.service, settings: service, baseURL: baseURL, forwarding: settings,
                variants: route.variants, transport: measured, clock: clock)
            factories[name] = RepositoryFactory(
                name: name, store: store, service: httpService, policy: settings.repositoryPolicy)
            memoryLevels[name] = level1
            metrics.registerRepository(name)
            metrics.observeCache(repository: name, level: "memory") { level1.statistics }
            metrics.observeCoalescedWaiters(repository: name) { store.coalescedWaiters }
            routes.append(route)
        }
        self.routes = routes
        self.factories = factories
        self.memoryLevels = memoryLevels
        self.diskLevels = diskLevels
        self.diskProblems = diskProblems
    }

    /// A repository over the shared store of `name`; `nil` for an unknown name. Synchronous and cheap.
    public func makeRepository(named name: String) -> Repository<ResourceKey, Representation>? {
        factories[name]?.makeRepository()
    }

    /// The route of the repository `name`.
    public func route(named name: String) -> RepositoryRoute? { routes.first { $0.name == name } }

    /// The memory level's entries, bytes and evictions of the repository `name`.
    public func memoryStatistics(named name: String) -> DatastoreStatistics? { memoryLevels[name]?.statistics }

    /// The disk level's entry files, bytes and evictions of the repository `name`; `nil` when it
    /// has no disk level (none configured, or its folder could not be opened).
    public func diskStatistics(named name: String) -> DatastoreStatistics? { diskLevels[name]?.statistics }

    private static func makeService(
        named name: String, settings: ServiceSettings, baseURL: URL, forwarding repository: RepositorySettings,
        variants: VaryRegistry, transport: any Transport, clock: any ClockProvider
    ) -> HTTPService {
        HTTPService(
            name: name, baseURL: baseURL, timeouts: settings.timeouts,
            defaultHeaders: HTTPHeaders(
                settings.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }),
            apiKey: settings.apiKey.map(Self.makeAPIKey), forwardedHeaders: repository.forwardedHeaderList,
            transport: transport, clock: clock, policy: repository.freshnessPolicy, variants: variants)
    }

    private static func makeAPIKey(_ settings: APIKeySettings) -> UpstreamAPIKey {
        let provider: any APIKeyProvider =
            if let variable = settings.env {
                EnvironmentAPIKeyProvider(variable: variable)
            } else {
                FileAPIKeyProvider(path: settings.file ?? "")
            }
        let placement: UpstreamAPIKey.Placement =
            if let header = settings.header { .header(header) } else { .queryParameter(settings.query ?? "") }
        return UpstreamAPIKey(provider: provider, placement: placement)
    }
}
