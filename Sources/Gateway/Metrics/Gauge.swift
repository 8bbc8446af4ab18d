import Synchronization

/// A value that goes up and down (open connections, requests in flight): one atomic integer.
public final class Gauge: MetricSeries {
    private let current = Atomic<Int>(0)

    /// Creates a gauge at zero.
    public init() {}

    /// Gauges are written with `# TYPE … gauge`.
    public static var type: MetricType { .gauge }

    /// The current value.
    public var value: Int { current.load(ordering: .relaxed) }

    /// Replaces the value.
    public func set(_ value: Int) {
        current.store(value, ordering: .relaxed)
    }

    /// Adds `amount` (which may be negative).
    public func increment(by amount: Int = 1) {
        current.wrappingAdd(amount, ordering: .relaxed)
    }

    /// Subtracts `amount`.
    public func decrement(by amount: Int = 1) {
        current.wrappingSubtract(amount, ordering: .relaxed)
    }

    /// Writes the single sample `name{labels} value`.
    public func appendSamples(named name: String, labels: [MetricLabel], to samples: inout [MetricSample]) {
        samples.append(MetricSample(name: name, labels: labels, value: Double(value)))
    }
}
