/// Coordinates the fetches of a key across processes that share a datastore level, so that one
/// of them calls the service and the others use what it stores (a lease in the shared store).
///
/// Within a process the single-flight table already makes one fetch per key; the coordinator is
/// asked by that one fetch only.
public protocol FetchCoordinator<Key>: Sendable {
    /// The key type.
    associatedtype Key: Sendable

    /// Called before fetching `key` from the service: returns whether this process fetches
    /// (holding a lease to release), waited for another process's fetch to end, or fetches
    /// uncoordinated (the shared store is unreachable).
    func acquire(_ key: Key) async -> FetchLease
}
