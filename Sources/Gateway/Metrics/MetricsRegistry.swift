import Synchronization

/// Owns every metric of the process and reads them all for `/metrics`.
///
/// Registration happens at start-up; a name registered twice, or one that is not a valid
/// Prometheus metric name, is a programming error and stops the process with a clear message.
public final class MetricsRegistry: Sendable {
    private let collectors = Mutex<[String: any MetricCollector]>([:])

    /// Creates an empty registry.
    public init() {}

    /// Registers a counter family with one series per label set.
    public func counter<Labels: MetricLabels>(
        _ name: String, help: String, labels: Labels.Type
    ) -> MetricFamily<Labels, Counter> {
        register(MetricFamily(name: name, help: help, makeSeries: { Counter() }))
    }

    /// Registers an unlabelled counter.
    public func counter(_ name: String, help: String) -> Counter {
        counter(name, help: help, labels: NoLabels.self).labels(NoLabels())
    }

    /// Registers a gauge family with one series per label set.
    public func gauge<Labels: MetricLabels>(
        _ name: String, help: String, labels: Labels.Type
    ) -> MetricFamily<Labels, Gauge> {
        register(MetricFamily(name: name, help: help, makeSeries: { Gauge() }))
    }

    /// Registers an unlabelled gauge.
    public func gauge(_ name: String, help: String) -> Gauge {
        gauge(name, help: help, labels: NoLabels.self).labels(NoLabels())
    }

    /// Registers a histogram family whose series all share `buckets`.
    public func histogram<Labels: MetricLabels>(
        _ name: String, help: String, labels: Labels.Type, buckets: [Double]
    ) -> MetricFamily<Labels, Histogram> {
        register(MetricFamily(name: name, help: help, makeSeries: { Histogram(upperBounds: buckets) }))
    }

    /// Registers a counter or gauge read by callbacks (see ``CallbackMetric/addReader(owner:_:)``).
    public func callback(_ name: String, help: String, type: MetricType, labelNames: [String]) -> CallbackMetric {
        precondition(type != .histogram, "callback metric \(name) must be a counter or a gauge")
        return register(CallbackMetric(name: name, help: help, type: type, labelNames: labelNames))
    }

    /// Reads every metric, ordered by name.
    public func collect() -> [MetricFamilySnapshot] {
        let all = collectors.withLock { Array($0.values) }
        return all.map { $0.collect() }.sorted { $0.name < $1.name }
    }

    /// Every metric in the Prometheus text exposition format.
    public func prometheusText() -> String {
        PrometheusTextRenderer.render(collect())
    }

    private func register<Collector: MetricCollector>(_ collector: Collector) -> Collector {
        precondition(
            PrometheusTextRenderer.isValidMetricName(collector.name), "invalid metric name \(collector.name)")
        precondition(
            collector.labelNames.allSatisfy(PrometheusTextRenderer.isValidLabelName),
            "invalid label names \(collector.labelNames) of metric \(collector.name)")
        collectors.withLock { collectors in
            precondition(collectors[collector.name] == nil, "metric \(collector.name) registered twice")
            collectors[collector.name] = collector
        }
        return collector
    }
}
