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
    /// A write accepted into a durable outbox and not yet delivered to the service (read-your-writes).
    case pending
}
