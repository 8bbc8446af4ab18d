/// The metrics of webhooks and purges: hook requests by outcome, resources affected by action.
public final class HookMetrics: Sendable {
    private let requests: MetricFamily<OutcomeLabels, Counter>
    private let affected: MetricFamily<OutcomeLabels, Counter>

    /// Labels of the hook counters: the repository and an outcome or action.
    struct OutcomeLabels: MetricLabels {
        var repository: String
        var outcome: String
        static var labelNames: [String] { ["repository", "outcome"] }
        var labelValues: [String] { [repository, outcome] }
    }

    /// Registers the metrics in `registry`.
    init(registry: MetricsRegistry) {
        requests = registry.counter(
            "rds_gateway_hook_requests_total",
            help: "Webhook requests, by repository and outcome: accepted, unauthorized, bad_request.",
            labels: OutcomeLabels.self)
        affected = registry.counter(
            "rds_gateway_purged_resources_total",
            help: "Resources refreshed, invalidated or soft-purged by webhooks and admin purges, by action.",
            labels: OutcomeLabels.self)
    }

    /// Counts one webhook request of `repository` by its outcome.
    func recordRequest(repository: String, outcome: String) {
        requests.labels(OutcomeLabels(repository: repository, outcome: outcome)).increment()
    }

    /// Counts `count` resources of `repository` affected by `action`.
    func recordAffected(_ count: Int, repository: String, action: String) {
        affected.labels(OutcomeLabels(repository: repository, outcome: action)).increment(by: count)
    }
}
