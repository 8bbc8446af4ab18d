/// One header field: its name as received (compared without case) and its value.
///
/// A struct rather than a tuple: arrays of fields are copied and destroyed on every request, and
/// a struct's copy and destroy are compiled for it where a tuple's go through the runtime.
public struct HTTPField: Sendable, Hashable {
    /// The field name, spelled as received.
    public var name: String
    /// The field value.
    public var value: String

    /// Creates a field.
    @inlinable public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
