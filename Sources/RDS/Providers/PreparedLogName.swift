/// A log field name whose JSON form (`,"name":`) is made once, in one shared object, for a field
/// a hot path writes on every event with a changing value (see ``LogFieldWriter``).
public final class PreparedLogName: Sendable {
    /// The name.
    public let name: String
    /// `,"name":` as ``JSONLinesLogger`` writes it (an envelope name renamed `field.name`).
    let json: [UInt8]

    /// Prepares `name`.
    public init(_ name: String) {
        self.name = name
        json = LogFieldWriter.encoded(name: name, value: nil)
    }
}
