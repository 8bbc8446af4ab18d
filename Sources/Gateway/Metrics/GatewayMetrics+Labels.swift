extension GatewayMetrics {
    /// How a repository answered a read, as counted by `rds_gateway_cache_lookups_total`.
    public enum CacheResult: String, Sendable, CaseIterable {
        /// A fresh stored value.
        case hit
        /// Nothing usable stored: fetched from the upstream.
        case miss
        /// A stale stored value (stale-while-revalidate or stale-if-error).
        case stale
        /// A stored value renewed by a conditional request (304).
        case revalidated
        /// The cache was not used (not storable, or a forced reload).
        case bypass

        /// The result named by an `X-Cache` value, in any letter case.
        public init?(xCache value: String) {
            guard let result = Self(exactXCache: value) ?? Self(rawValue: value.lowercased()) else { return nil }
            self = result
        }

        /// The result named by an `X-Cache` value as the gateway writes it (`HIT`), matched
        /// without mapping; `nil` for any other spelling. Told apart by length first: a
        /// comparison of unequal strings costs several times one of equal strings.
        init?(exactXCache value: String) {
            switch value.utf8.count {
            case 3 where value == "HIT": self = .hit
            case 4 where value == "MISS": self = .miss
            case 5 where value == "STALE": self = .stale
            case 6 where value == "BYPASS": self = .bypass
            case 11 where value == "REVALIDATED": self = .revalidated
            default: return nil
            }
        }
    }

    /// Labels of `rds_gateway_http_requests_total`.
    struct RequestLabels: MetricLabels {
        var route: String
        var method: String
        var status: Int
        static var labelNames: [String] { ["route", "method", "status"] }
        var labelValues: [String] { [route, method, String(status)] }
    }

    /// Labels of `rds_gateway_http_request_duration_seconds`.
    struct RouteLabels: MetricLabels {
        var route: String
        static var labelNames: [String] { ["route"] }
        var labelValues: [String] { [route] }
    }

    /// Labels of `rds_gateway_cache_lookups_total`.
    struct CacheLabels: MetricLabels {
        var repository: String
        var result: CacheResult
        static var labelNames: [String] { ["repository", "result"] }
        var labelValues: [String] { [repository, result.rawValue] }
    }

    /// Labels of the upstream call counter and latency histogram.
    struct ServiceLabels: MetricLabels {
        var service: String
        static var labelNames: [String] { ["service"] }
        var labelValues: [String] { [service] }
    }

    /// Labels of `rds_gateway_upstream_errors_total`.
    struct ServiceErrorLabels: MetricLabels {
        var service: String
        var code: String
        static var labelNames: [String] { ["service", "code"] }
        var labelValues: [String] { [service, code] }
    }
}
