/// The label set of one series of a metric family: a small `Hashable` value looked up without
/// allocating, turned into label pairs only when the registry is rendered.
public protocol MetricLabels: Hashable, Sendable {
    /// The label names, in the order ``labelValues`` gives their values.
    static var labelNames: [String] { get }
    /// The label values, one per name in ``labelNames``.
    var labelValues: [String] { get }
}
