import Gateway

/// A one-label set for the tests.
struct PathLabels: MetricLabels {
    var path: String
    static var labelNames: [String] { ["path"] }
    var labelValues: [String] { [path] }
}
