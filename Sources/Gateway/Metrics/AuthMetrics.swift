/// The metrics of upstream credentials: token requests by result, the age of each service's
/// token, and requests retried after a 401. Never a secret, only service names and results.
public final class AuthMetrics: Sendable {
    private let tokenRequests: MetricFamily<TokenRequestLabels, Counter>
    private let tokenAge: CallbackMetric
    private let retries: MetricFamily<GatewayMetrics.ServiceLabels, Counter>

    /// Labels of `rds_gateway_upstream_token_requests_total`.
    struct TokenRequestLabels: MetricLabels {
        var service: String
        var result: String
        static var labelNames: [String] { ["service", "result"] }
        var labelValues: [String] { [service, result] }
    }

    /// Registers the metrics in `registry`.
    init(registry: MetricsRegistry) {
        tokenRequests = registry.counter(
            "rds_gateway_upstream_token_requests_total",
            help: "OAuth2 token requests, by service and result: ok, refused, failed, unreachable, no_secret.",
            labels: TokenRequestLabels.self)
        tokenAge = registry.callback(
            "rds_gateway_upstream_token_age_seconds", help: "Age of the access token each service sends now.",
            type: .gauge, labelNames: ["service"])
        retries = registry.counter(
            "rds_gateway_upstream_auth_retries_total",
            help: "Upstream calls retried once with a new credential after a 401.",
            labels: GatewayMetrics.ServiceLabels.self)
    }

    /// Creates the zero series of a service that fetches tokens.
    func register(service: String) {
        for result in OAuth2TokenExchange.Result.allCases {
            _ = tokenRequests.labels(TokenRequestLabels(service: service, result: result.rawValue))
        }
    }

    /// Counts one token request of `service` by its result.
    func recordTokenRequest(service: String, result: String) {
        tokenRequests.labels(TokenRequestLabels(service: service, result: result)).increment()
    }

    /// Creates the zero series of a service whose calls carry credentials.
    func registerRetries(service: String) {
        _ = retries.labels(GatewayMetrics.ServiceLabels(service: service))
    }

    /// Counts one upstream call of `service` retried after a 401.
    func recordRetry(service: String) {
        retries.labels(GatewayMetrics.ServiceLabels(service: service)).increment()
    }

    /// Reads the token age of `service` at every rendering (no series while it holds no token),
    /// replacing an earlier reader of that service.
    func observeTokenAge(service: String, age: @escaping @Sendable () -> Double?) {
        tokenAge.removeReaders(owner: service)
        tokenAge.addReader(owner: service) { age().map { [MetricReading(labelValues: [service], value: $0)] } ?? [] }
    }

    /// Stops reading the token age of `service` (removed by a reload).
    func forgetTokenAge(service: String) {
        tokenAge.removeReaders(owner: service)
    }
}
