/// A log field whose JSON form (`,"name":value`) is made once, in one shared object, for a field
/// a hot path writes on many events with the same value: a route, a repository, a method (see
/// ``LogFieldWriter``).
public final class PreparedLogField: Sendable {
    /// The name.
    public let name: String
    /// The value.
    public let value: LogValue
    /// `,"name":value` as ``JSONLinesLogger`` writes it (an envelope name renamed `field.name`).
    let json: [UInt8]

    /// Prepares the field `name` with `value`.
    public init(_ name: String, _ value: LogValue) {
        self.name = name
        self.value = value
        json = LogFieldWriter.encoded(name: name, value: value)
    }
}
