/// One label pair of a sample, e.g. `route="/weather/{city}"`.
public struct MetricLabel: Sendable, Hashable {
    /// The label name.
    public var name: String
    /// The label value, unescaped.
    public var value: String

    /// Creates a label pair.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
