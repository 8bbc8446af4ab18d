/// One series of a metric family (a counter, a gauge or a histogram for one label set).
public protocol MetricSeries: Sendable {
    /// The type written on the family's `# TYPE` line.
    static var type: MetricType { get }
    /// Appends this series' samples; the family calls this while it renders.
    /// - Parameters:
    ///   - name: The family name.
    ///   - labels: The series' label pairs.
    ///   - samples: Where the samples go.
    func appendSamples(named name: String, labels: [MetricLabel], to samples: inout [MetricSample])
}
