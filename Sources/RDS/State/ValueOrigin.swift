/// Where a loaded value came from.
public enum ValueOrigin: String, Sendable, Hashable, Codable {
    /// The datastore, without asking the service.
    case cache
    /// The service, with a new value.
    case service
    /// The datastore, renewed by the service's "not modified".
    case revalidated
    /// A successful write.
    case write
}
