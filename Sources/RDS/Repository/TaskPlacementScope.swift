/// What a caller binds as ``TaskPlacement/scope`` for the reads its task makes.
public protocol TaskPlacementScope: AnyObject, Sendable {
    /// The executor the tasks a read starts prefer, `nil` for the global one. A caller running on
    /// an event loop names that loop, so the fetch it starts runs there too and answers it
    /// without a thread switch.
    var preferredExecutor: (any TaskExecutor)? { get }

    /// Starts `job` (a read's fetch) in a task the scope keeps between jobs, with this scope bound
    /// as ``TaskPlacement/scope``; `nil` when it keeps none here (then `job` runs in a new task
    /// preferring ``preferredExecutor``).
    func startTask(_ job: @escaping @Sendable () async -> Void) -> (any PlacedTask)?
}

extension TaskPlacementScope {
    /// Keeps no tasks: every fetch runs in a new task.
    public func startTask(_ job: @escaping @Sendable () async -> Void) -> (any PlacedTask)? { nil }
}
