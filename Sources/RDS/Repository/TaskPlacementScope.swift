/// What a caller binds as ``TaskPlacement/scope`` for the reads its task makes.
public protocol TaskPlacementScope: AnyObject, Sendable {
    /// The executor the tasks a read starts prefer, `nil` for the global one. A caller running on
    /// an event loop names that loop, so the fetch it starts runs there too and answers it
    /// without a thread switch.
    var preferredExecutor: (any TaskExecutor)? { get }
}
