import RDS
import Sockets

/// The gateway's metrics by name: what `/metrics` shows and what the request path records.
///
/// Every metric is prefixed `rds_gateway_`. Series for a repository or service are created at
/// zero when it is registered, so dashboards see them before the first request.
public final class GatewayMetrics: Sendable {
    /// Latency buckets in seconds, from 100 µs (a cache hit) to 10 s (a slow upstream).
    public static let latencyBuckets: [Double] = [
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    /// The registry holding every metric below.
    public let registry: MetricsRegistry
    /// Requests being answered right now.
    public let requestsInFlight: Gauge
    /// Token requests, token ages and 401 retries.
    public let auth: AuthMetrics
    /// The shared (Redis) level's state and events.
    public let sharedCache: SharedCacheMetrics
    /// The write and outbox metrics.
    public let writes: WriteMetrics
    /// Webhook requests and purged resources.
    public let hooks: HookMetrics
    private let requests: MetricFamily<RequestLabels, Counter>
    private let requestDuration: MetricFamily<RouteLabels, Histogram>
    private let cacheLookups: MetricFamily<CacheLabels, Counter>
    private let coalescedWaiters: CallbackMetric
    private let upstreamCalls: MetricFamily<ServiceLabels, Counter>
    private let upstreamErrors: MetricFamily<ServiceErrorLabels, Counter>
    private let upstreamDuration: MetricFamily<ServiceLabels, Histogram>
    private let cacheEntries: CallbackMetric
    private let cacheBytes: CallbackMetric
    private let cacheEvictions: CallbackMetric
    private let diskDegraded: CallbackMetric
    private let diskWriteFailures: CallbackMetric
    private let openConnections: CallbackMetric
    private let inFlightBodyBytes: CallbackMetric

    /// Registers the gateway's metrics in `registry`.
    public init(registry: MetricsRegistry = MetricsRegistry()) {
        self.registry = registry
        auth = AuthMetrics(registry: registry)
        sharedCache = SharedCacheMetrics(registry: registry)
        writes = WriteMetrics(registry: registry)
        hooks = HookMetrics(registry: registry)
        requests = registry.counter(
            "rds_gateway_http_requests_total", help: "HTTP requests answered, by route template, method and status.",
            labels: RequestLabels.self)
        requestDuration = registry.histogram(
            "rds_gateway_http_request_duration_seconds", help: "Time from a parsed request to its response, by route.",
            labels: RouteLabels.self, buckets: Self.latencyBuckets)
        requestsInFlight = registry.gauge(
            "rds_gateway_http_requests_in_flight", help: "HTTP requests being answered now.")
        cacheLookups = registry.counter(
            "rds_gateway_cache_lookups_total",
            help: "Repository reads by result: hit, miss, stale, revalidated, bypass.", labels: CacheLabels.self)
        coalescedWaiters = registry.callback(
            "rds_gateway_cache_coalesced_waiters_total",
            help: "Reads that joined an upstream call already in flight for the same key.", type: .counter,
            labelNames: ["repository"])
        upstreamCalls = registry.counter(
            "rds_gateway_upstream_requests_total", help: "Calls made to an upstream service.",
            labels: ServiceLabels.self)
        upstreamErrors = registry.counter(
            "rds_gateway_upstream_errors_total", help: "Failed upstream calls, by error code.",
            labels: ServiceErrorLabels.self)
        upstreamDuration = registry.histogram(
            "rds_gateway_upstream_request_duration_seconds", help: "Upstream call latency, by service.",
            labels: ServiceLabels.self, buckets: Self.latencyBuckets)
        cacheEntries = registry.callback(
            "rds_gateway_cache_entries", help: "Entries held, by repository and cache level.", type: .gauge,
            labelNames: ["repository", "level"])
        cacheBytes = registry.callback(
            "rds_gateway_cache_bytes", help: "Bytes held, by repository and cache level.", type: .gauge,
            labelNames: ["repository", "level"])
        cacheEvictions = registry.callback(
            "rds_gateway_cache_evictions_total", help: "Entries evicted to respect the cache bounds.",
            type: .counter, labelNames: ["repository", "level"])
        diskDegraded = registry.callback(
            "rds_gateway_disk_degraded",
            help: "1 while a repository's disk level is degraded (its last write failed) or unavailable, else 0.",
            type: .gauge, labelNames: ["repository"])
        diskWriteFailures = registry.callback(
            "rds_gateway_disk_write_failures_total", help: "Failed writes of a repository's disk level.",
            type: .counter, labelNames: ["repository"])
        openConnections = registry.callback(
            "rds_gateway_open_connections", help: "Client connections open now.", type: .gauge, labelNames: [])
        inFlightBodyBytes = registry.callback(
            "rds_gateway_inflight_body_bytes", help: "Bytes held for upstream answers still arriving.", type: .gauge,
            labelNames: [])
    }

    /// Creates the zero series of a repository, so they show before its first read.
    public func registerRepository(_ repository: String) {
        for result in CacheResult.allCases {
            _ = cacheLookups.labels(CacheLabels(repository: repository, result: result))
        }
    }

    /// The recorder of a service's upstream calls, with its series resolved (created at zero) now.
    public func recorder(service: String) -> UpstreamRecorder {
        UpstreamRecorder(
            service: service, calls: upstreamCalls.labels(ServiceLabels(service: service)),
            duration: upstreamDuration.labels(ServiceLabels(service: service)), errors: upstreamErrors)
    }

    /// Counts one answered request.
    /// - Parameters:
    ///   - route: The route template (never the raw path, to keep the series few), e.g. `/weather/{city}`.
    ///   - method: The request method.
    ///   - status: The response status.
    ///   - duration: The time spent answering.
    public func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        recorder(route: route, repository: nil).record(
            method: method, status: status, nanoseconds: LoopInstant.nanoseconds(of: duration), cacheResult: nil)
    }

    /// The recorder of a route's requests (and of its repository's reads, when it has one), with
    /// their series resolved now; the repository's series are created at zero as by ``registerRepository(_:)``.
    public func recorder(route: String, repository: String?) -> RouteRecorder {
        let lookups = repository.map { repository in
            CacheResult.allCases.map { ($0, cacheLookups.labels(CacheLabels(repository: repository, result: $0))) }
        }
        return RouteRecorder(
            route: route, family: requests, duration: requestDuration.labels(RouteLabels(route: route)),
            cacheLookups: lookups ?? [])
    }

    /// Counts one repository read by how it was answered.
    public func recordCacheResult(_ result: CacheResult, repository: String) {
        cacheLookups.labels(CacheLabels(repository: repository, result: result)).increment()
    }

    /// Reads a repository's count of reads that joined an upstream call already under way
    /// (``RepositoryStore/coalescedWaiters``) at every rendering.
    public func observeCoalescedWaiters(repository: String, count: @escaping @Sendable () -> Int) {
        coalescedWaiters.addReader(owner: repository) {
            [MetricReading(labelValues: [repository], value: Double(count()))]
        }
    }

    /// Reads a cache level's size and evictions at every rendering.
    /// - Parameters:
    ///   - repository: The repository owning the datastore.
    ///   - level: `memory` or `disk`.
    ///   - statistics: Returns the datastore's current statistics; must not block.
    public func observeCache(
        repository: String, level: String, statistics: @escaping @Sendable () -> DatastoreStatistics
    ) {
        cacheEntries.addReader(owner: repository) {
            [MetricReading(labelValues: [repository, level], value: Double(statistics().entries))]
        }
        cacheBytes.addReader(owner: repository) {
            [MetricReading(labelValues: [repository, level], value: Double(statistics().bytes))]
        }
        cacheEvictions.addReader(owner: repository) {
            [MetricReading(labelValues: [repository, level], value: Double(statistics().evictions))]
        }
    }

    /// Stops reading the cache and coalescing figures of `repository` (removed or rebuilt by a
    /// configuration reload); its counters keep their values.
    public func forgetRepository(_ repository: String) {
        for metric in [cacheEntries, cacheBytes, cacheEvictions, coalescedWaiters, diskDegraded, diskWriteFailures] {
            metric.removeReaders(owner: repository)
        }
    }

    /// Reads a repository's disk level health at every rendering.
    /// - Parameters:
    ///   - repository: The repository owning the level.
    ///   - statistics: Returns the level's current statistics, `nil` when it is unavailable; must not block.
    public func observeDisk(repository: String, statistics: @escaping @Sendable () -> DatastoreStatistics?) {
        diskDegraded.addReader(owner: repository) {
            let health = DiskLevelHealth(repository: repository, statistics: statistics())
            return [MetricReading(labelValues: [repository], value: health.isDegraded ? 1 : 0)]
        }
        diskWriteFailures.addReader(owner: repository) {
            [MetricReading(labelValues: [repository], value: Double(statistics()?.writeFailures ?? 0))]
        }
    }

    /// Reads the server's open connection count at every rendering.
    public func observeOpenConnections(_ count: @escaping @Sendable () -> Int) {
        openConnections.addReader { [MetricReading(labelValues: [], value: Double(count()))] }
    }

    /// Reads the bytes held for upstream answers still arriving at every rendering.
    public func observeInFlightBodyBytes(_ count: @escaping @Sendable () -> Int) {
        inFlightBodyBytes.addReader { [MetricReading(labelValues: [], value: Double(count()))] }
    }

    /// Every metric in the Prometheus text format, for `GET /metrics`.
    public func prometheusText() -> String {
        registry.prometheusText()
    }
}
