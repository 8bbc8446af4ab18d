/// Where the tasks a repository starts for a read (its fetch, the fetch's deadline race) run.
public enum TaskPlacement {
    /// The executor those tasks prefer, `nil` for the global one. A caller running on an event
    /// loop sets it to that loop, so the fetch it starts runs there too and answers it without a
    /// thread switch.
    @TaskLocal public static var preferredExecutor: (any TaskExecutor)?
}
