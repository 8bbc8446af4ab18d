import Synchronization

/// A counter or gauge whose values live elsewhere (a datastore's entry count, the server's open
/// connections) and are read by closures each time the registry renders.
public final class CallbackMetric: MetricCollector {
    /// A closure returning the current values of some series of this metric.
    public typealias Reader = @Sendable () -> [MetricReading]

    /// The family name.
    public let name: String
    /// The help text.
    public let help: String
    /// The type: `.counter` or `.gauge`.
    public let type: MetricType
    /// The label names of every series.
    public let labelNames: [String]
    private let readers = Mutex<[(owner: String?, read: Reader)]>([])

    /// Creates a callback metric; the registry does this.
    init(name: String, help: String, type: MetricType, labelNames: [String]) {
        self.name = name
        self.help = help
        self.type = type
        self.labelNames = labelNames
    }

    /// Adds a reader; its readings join those of earlier readers.
    /// Readings whose label count differs from ``labelNames`` are left out when rendering.
    /// - Parameter owner: Names what the reader reports on (e.g. a repository), so that
    ///   ``removeReaders(owner:)`` can take it out when that goes away (a configuration reload).
    public func addReader(owner: String? = nil, _ reader: @escaping Reader) {
        readers.withLock { $0.append((owner, reader)) }
    }

    /// Removes every reader added for `owner`.
    public func removeReaders(owner: String) {
        readers.withLock { $0.removeAll { $0.owner == owner } }
    }

    /// Calls every reader (outside the lock) and orders the readings by label values.
    public func collect() -> MetricFamilySnapshot {
        let readers = readers.withLock { $0 }
        let readings = readers.flatMap { $0.read() }
            .filter { $0.labelValues.count == labelNames.count }
            .sorted { $0.labelValues.lexicographicallyPrecedes($1.labelValues) }
        let samples = readings.map { reading in
            MetricSample(
                name: name, labels: zip(labelNames, reading.labelValues).map { MetricLabel($0, $1) },
                value: reading.value)
        }
        return MetricFamilySnapshot(name: name, help: help, type: type, samples: samples)
    }
}
