import RDS

/// The metrics of the shared (Redis) level: whether it is degraded, failed commands and the
/// fallbacks to the local levels they caused, shared hits and misses, invalidations announced
/// and applied, and flushes of the local levels after lost news.
public final class SharedCacheMetrics: Sendable {
    private let degraded: CallbackMetric
    private let events: CallbackMetric

    /// Registers the metrics in `registry`.
    init(registry: MetricsRegistry) {
        degraded = registry.callback(
            "rds_gateway_shared_cache_degraded",
            help: "1 while the shared cache is unreachable or its invalidation stream is not read (local levels only), else 0.",
            type: .gauge, labelNames: [])
        events = registry.callback(
            "rds_gateway_shared_cache_events_total",
            help: "Shared cache events: error, fallback, hit, miss, announced, applied, lease_wait, flush.", type: .counter,
            labelNames: ["event"])
    }

    /// Reads `statistics` at every rendering (once, when the shared level is made).
    func observe(_ statistics: @escaping @Sendable () -> SharedCacheStatistics) {
        degraded.addReader { [MetricReading(labelValues: [], value: statistics().isDegraded ? 1 : 0)] }
        events.addReader {
            let now = statistics()
            return [
                ("error", now.errors), ("fallback", now.fallbacks), ("hit", now.hits), ("miss", now.misses),
                ("announced", now.announced), ("applied", now.applied), ("lease_wait", now.leaseWaits), ("flush", now.flushes),
            ].map { MetricReading(labelValues: [$0.0], value: Double($0.1)) }
        }
    }
}
