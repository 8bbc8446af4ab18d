/// Something the registry reads when it renders: a metric family owning its series, or a
/// callback metric sampled on demand.
public protocol MetricCollector: Sendable {
    /// The family name.
    var name: String { get }
    /// The label names of every series (without the `le` of histogram buckets).
    var labelNames: [String] { get }
    /// Reads the family's current samples. The registry calls this once per rendering.
    func collect() -> MetricFamilySnapshot
}
