/// Where the tasks a repository starts for a read (its fetch, the fetch's deadline race) run.
public enum TaskPlacement {
    /// The scope of the read the current task makes, bound by its caller: a caller with a
    /// per-request value of its own (the gateway's request context) binds that, so that one
    /// task-local binding per request serves both.
    @TaskLocal public static var scope: (any TaskPlacementScope)?

    /// The executor those tasks prefer, `nil` for the global one: the current ``scope``'s.
    public static var preferredExecutor: (any TaskExecutor)? { scope?.preferredExecutor }

    /// Runs `job` in a task the current ``scope`` keeps (``TaskPlacementScope/startTask(_:)``),
    /// or else in a new one preferring ``preferredExecutor`` (which inherits the scope).
    static func start(_ job: @escaping @Sendable () async -> Void) -> any PlacedTask {
        if let placed = scope?.startTask(job) { return placed }
        return Task(executorPreference: preferredExecutor) { await job() }
    }
}
