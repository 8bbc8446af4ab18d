/// How one fetch ended: what its waiters get and what its subscribers see.
struct FlightOutcome<Value: Sendable>: Sendable {
    /// The answer or error handed to every waiter.
    let result: Result<RepositoryAnswer<Value>, RepositoryError>
    /// The state published when the fetch ends.
    let state: ResourceState<Value>
}
