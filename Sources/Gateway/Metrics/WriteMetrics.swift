import Foundation

/// The metrics of writes and of the durable outboxes: writes by result, queue depth, oldest
/// pending age and dead letters per repository, and how long queued writes waited for delivery.
public final class WriteMetrics: Sendable {
    /// How a write ended up, as counted by `rds_gateway_writes_total`.
    public enum Result: String, Sendable, CaseIterable {
        /// Sent to the upstream while the client waited.
        case forwarded
        /// Accepted into the outbox (202).
        case queued
        /// Delivered from the outbox.
        case replayed
        /// Moved to the dead letters (rejected or expired).
        case deadLettered = "dead_lettered"
    }

    /// Labels of `rds_gateway_writes_total`.
    struct WriteLabels: MetricLabels {
        var repository: String
        var result: String
        static var labelNames: [String] { ["repository", "result"] }
        var labelValues: [String] { [repository, result] }
    }

    /// Labels naming a repository only.
    struct RepositoryLabels: MetricLabels {
        var repository: String
        static var labelNames: [String] { ["repository"] }
        var labelValues: [String] { [repository] }
    }

    /// The buckets of the replay delay, in seconds: a tenth of a second to an hour.
    static let delayBuckets: [Double] = [0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3_600]

    private let writes: MetricFamily<WriteLabels, Counter>
    private let replayDelay: MetricFamily<RepositoryLabels, Histogram>
    private let depth: CallbackMetric
    private let oldestAge: CallbackMetric
    private let deadLetters: CallbackMetric

    /// Registers the metrics in `registry`.
    init(registry: MetricsRegistry) {
        writes = registry.counter(
            "rds_gateway_writes_total",
            help: "Writes by repository and result: forwarded, queued, replayed, dead_lettered.",
            labels: WriteLabels.self)
        replayDelay = registry.histogram(
            "rds_gateway_write_replay_delay_seconds",
            help: "Time from a queued write's acceptance to its delivery, by repository.",
            labels: RepositoryLabels.self, buckets: Self.delayBuckets)
        depth = registry.callback(
            "rds_gateway_write_queue_depth", help: "Writes waiting in a repository's outbox.", type: .gauge,
            labelNames: ["repository"])
        oldestAge = registry.callback(
            "rds_gateway_write_queue_oldest_age_seconds",
            help: "Seconds the oldest write in a repository's outbox has waited (0 when none).", type: .gauge,
            labelNames: ["repository"])
        deadLetters = registry.callback(
            "rds_gateway_write_dead_letters", help: "Dead letters in a repository's outbox.", type: .gauge,
            labelNames: ["repository"])
    }

    /// Counts one write of `repository` by how it ended up.
    func record(_ result: Result, repository: String) {
        writes.labels(WriteLabels(repository: repository, result: result.rawValue)).increment()
    }

    /// Records how long a delivered write waited since it was accepted.
    func recordReplay(repository: String, waited: TimeInterval) {
        record(.replayed, repository: repository)
        replayDelay.labels(RepositoryLabels(repository: repository)).observe(.milliseconds(Int64(waited * 1000)))
    }

    /// Reads the outbox of `repository` at every rendering, replacing an earlier reader.
    func observe(_ outbox: WriteOutbox) {
        let repository = outbox.repository
        for result in Result.allCases { _ = writes.labels(WriteLabels(repository: repository, result: result.rawValue)) }
        for metric in [depth, oldestAge, deadLetters] { metric.removeReaders(owner: repository) }
        depth.addReader(owner: repository) { [MetricReading(labelValues: [repository], value: Double(outbox.pendingCount))] }
        oldestAge.addReader(owner: repository) {
            [MetricReading(labelValues: [repository], value: outbox.oldestPendingAge)]
        }
        deadLetters.addReader(owner: repository) {
            [MetricReading(labelValues: [repository], value: Double(outbox.deadCount))]
        }
    }
}
