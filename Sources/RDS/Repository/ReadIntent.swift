/// What the caller of ``Repository/get(_:intent:)`` wants.
public enum ReadIntent: String, Sendable, Hashable {
    /// A normal read: the policy decides between the datastore and the service.
    case cached
    /// The client asked for `no-cache`: revalidate with the service (conditionally when the entry has
    /// validators) before using the stored value.
    case revalidate
    /// A forced, unconditional fetch from the service.
    case reload
}
