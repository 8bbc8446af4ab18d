import Synchronization

/// A named metric with one series per label set, created on first use.
///
/// Look a series up once and keep it where the label set is fixed (a repository's counters);
/// looking it up per request costs one uncontended lock and a hash of the labels, no allocation.
public final class MetricFamily<Labels: MetricLabels, Series: MetricSeries>: MetricCollector {
    /// The family name.
    public let name: String
    /// The help text.
    public let help: String
    /// The label names of every series.
    public var labelNames: [String] { Labels.labelNames }
    private let makeSeries: @Sendable () -> Series
    private let table = Mutex<[Labels: Series]>([:])

    /// Creates a family; the registry does this.
    init(name: String, help: String, makeSeries: @escaping @Sendable () -> Series) {
        self.name = name
        self.help = help
        self.makeSeries = makeSeries
    }

    /// The series for `labels`, created (at zero) when first asked for.
    public func labels(_ labels: Labels) -> Series {
        table.withLock { table in
            if let series = table[labels] {
                return series
            }
            let series = makeSeries()
            table[labels] = series
            return series
        }
    }

    /// Reads every series, ordered by label values.
    public func collect() -> MetricFamilySnapshot {
        let entries = table.withLock { table in table.map { (labels: $0.key.labelValues, series: $0.value) } }
        var samples: [MetricSample] = []
        for entry in entries.sorted(by: { $0.labels.lexicographicallyPrecedes($1.labels) }) {
            let pairs = zip(Labels.labelNames, entry.labels).map { MetricLabel($0, $1) }
            entry.series.appendSamples(named: name, labels: pairs, to: &samples)
        }
        return MetricFamilySnapshot(name: name, help: help, type: Series.type, samples: samples)
    }
}
