/// The kind of a metric family, as written on its `# TYPE` line.
public enum MetricType: String, Sendable, Hashable {
    /// A value that only goes up (reset on restart).
    case counter
    /// A value that goes up and down.
    case gauge
    /// Observations counted into fixed buckets, with their sum and count.
    case histogram
}
