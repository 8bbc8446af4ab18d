import Synchronization

/// A value that only goes up: one atomic integer, incremented without a lock or an allocation.
public final class Counter: MetricSeries {
    private let count = Atomic<Int>(0)

    /// Creates a counter at zero.
    public init() {}

    /// Counters are written with `# TYPE … counter`.
    public static var type: MetricType { .counter }

    /// The current value.
    public var value: Int { count.load(ordering: .relaxed) }

    /// Adds `amount`; amounts below one are ignored, since a counter never goes down.
    public func increment(by amount: Int = 1) {
        guard amount > 0 else { return }
        count.wrappingAdd(amount, ordering: .relaxed)
    }

    /// Writes the single sample `name{labels} value`.
    public func appendSamples(named name: String, labels: [MetricLabel], to samples: inout [MetricSample]) {
        samples.append(MetricSample(name: name, labels: labels, value: Double(value)))
    }
}
