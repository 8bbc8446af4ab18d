/// A metric family read at one instant: what the renderer writes as one `# HELP` / `# TYPE`
/// block followed by its samples.
public struct MetricFamilySnapshot: Sendable, Hashable {
    /// The family name, e.g. `rds_gateway_http_requests_total`.
    public var name: String
    /// The help text.
    public var help: String
    /// The type.
    public var type: MetricType
    /// The samples, in the order they are written.
    public var samples: [MetricSample]

    /// Creates a snapshot.
    public init(name: String, help: String, type: MetricType, samples: [MetricSample]) {
        self.name = name
        self.help = help
        self.type = type
        self.samples = samples
    }
}
