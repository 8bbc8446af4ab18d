/// One value read by a ``CallbackMetric`` reader: the label values of a series and its value.
public struct MetricReading: Sendable, Hashable {
    /// The label values, in the order of the metric's label names.
    public var labelValues: [String]
    /// The value.
    public var value: Double

    /// Creates a reading.
    public init(labelValues: [String], value: Double) {
        self.labelValues = labelValues
        self.value = value
    }
}
