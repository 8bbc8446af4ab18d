/// A stateless gateway to the source of truth: get, save and delete one resource.
///
/// Repositories call it; it never caches. Failures are thrown as ``ServiceError`` wrapping
/// whatever the transport threw. Implementations honour task cancellation.
public protocol Service<Key, Value>: Sendable {
    /// The key type.
    associatedtype Key: Hashable & Sendable
    /// The value type.
    associatedtype Value: Sendable

    /// Fetches the resource; with `validators`, asks only for a changed value.
    /// - Throws: ``ServiceError``.
    func get(_ key: Key, ifChangedFrom validators: Validators?) async throws -> ServiceResponse<Value>
    /// Fetches as ``get(_:ifChangedFrom:)`` does, ending by `deadline`: the repository's fetches
    /// call this. The default races that call against the deadline (see ``FetchDeadline/race(_:)``);
    /// a service whose calls end by a deadline of their own passes it down instead.
    /// - Throws: ``ServiceError``; ``FetchDeadline/Exceeded`` once the deadline has passed.
    func get(_ key: Key, ifChangedFrom validators: Validators?, within deadline: FetchDeadline) async throws
        -> ServiceResponse<Value>
    /// Writes `value` to the resource.
    /// - Throws: ``ServiceError``.
    func save(_ value: Value, for key: Key) async throws -> WriteResult<Value>
    /// Deletes the resource.
    /// - Throws: ``ServiceError``.
    func delete(_ key: Key) async throws -> WriteResult<Value>
    /// Deletes the resource; `element`, when given, describes the request (for example the
    /// idempotency key it carries). The default ignores it and calls ``delete(_:)``.
    /// - Throws: ``ServiceError``.
    func delete(_ key: Key, carrying element: Value?) async throws -> WriteResult<Value>
}

extension Service {
    /// Races ``get(_:ifChangedFrom:)`` against `deadline`.
    public func get(_ key: Key, ifChangedFrom validators: Validators?, within deadline: FetchDeadline) async throws
        -> ServiceResponse<Value>
    {
        try await deadline.race { try await get(key, ifChangedFrom: validators) }
    }

    /// Calls ``delete(_:)``, ignoring `element`.
    public func delete(_ key: Key, carrying element: Value?) async throws -> WriteResult<Value> {
        try await delete(key)
    }
}
