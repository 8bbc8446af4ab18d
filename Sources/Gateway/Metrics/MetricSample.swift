/// One line of the exposition: a sample name (the family name plus a suffix such as `_bucket`),
/// its label pairs in order, and its value.
public struct MetricSample: Sendable, Hashable {
    /// The full sample name, e.g. `rds_gateway_request_duration_seconds_bucket`.
    public var name: String
    /// The label pairs in the order they are written.
    public var labels: [MetricLabel]
    /// The value.
    public var value: Double

    /// Creates a sample.
    public init(name: String, labels: [MetricLabel], value: Double) {
        self.name = name
        self.labels = labels
        self.value = value
    }
}
