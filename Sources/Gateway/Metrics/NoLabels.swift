/// The label set of a metric family with a single, unlabelled series.
public struct NoLabels: MetricLabels {
    /// Creates the empty label set.
    public init() {}

    /// No label names.
    public static var labelNames: [String] { [] }
    /// No label values.
    public var labelValues: [String] { [] }
}
