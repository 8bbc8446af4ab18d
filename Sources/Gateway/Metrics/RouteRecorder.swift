import Synchronization

/// One route's request metrics, resolved once when the route is built (see
/// ``GatewayMetrics/recorder(route:repository:)``): its latency series and its repository's
/// cache-lookup series are held here, and its request counters by method and status are found in
/// a short list, so that counting a request hashes no label strings and takes no family-wide lock.
public final class RouteRecorder: Sendable {
    /// The most (method, status) counters kept in the list; further ones are looked up in the family.
    public static let listedCounters = 16

    private let route: String
    private let family: MetricFamily<GatewayMetrics.RequestLabels, Counter>
    private let duration: Histogram
    /// The repository's read counters by result; empty for a route without a repository.
    private let cacheLookups: [(result: GatewayMetrics.CacheResult, counter: Counter)]
    private let counters = Mutex<[(method: String, status: Int, counter: Counter)]>([])

    init(
        route: String, family: MetricFamily<GatewayMetrics.RequestLabels, Counter>, duration: Histogram,
        cacheLookups: [(result: GatewayMetrics.CacheResult, counter: Counter)]
    ) {
        self.route = route
        self.family = family
        self.duration = duration
        self.cacheLookups = cacheLookups
    }

    /// Counts one answered request by method and status, observes its latency of `nanoseconds`,
    /// and, for a repository route, counts how the cache answered it.
    public func record(
        method: String, status: Int, nanoseconds: Int64, cacheResult: GatewayMetrics.CacheResult?
    ) {
        counter(method: method, status: status).increment()
        duration.observe(nanoseconds: nanoseconds)
        if let cacheResult { cacheLookups.first { $0.result == cacheResult }?.counter.increment() }
    }

    private func counter(method: String, status: Int) -> Counter {
        let listed = counters.withLock { counters in
            counters.first { $0.status == status && $0.method == method }?.counter
        }
        if let listed { return listed }
        let counter = family.labels(GatewayMetrics.RequestLabels(route: route, method: method, status: status))
        counters.withLock { counters in
            if counters.count < Self.listedCounters, !counters.contains(where: { $0.counter === counter }) {
                counters.append((method, status, counter))
            }
        }
        return counter
    }
}
