/// Which write process a ``WriteState`` belongs to: each resource has one for persisting and one
/// for deleting.
public enum WriteKind: String, Sendable, Hashable, CaseIterable {
    /// `save`: persisting a value (a `PUT`, `PATCH` or `POST`).
    case write
    /// `delete`.
    case delete
}
