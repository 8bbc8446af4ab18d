/// A change of a resource's write or delete process state, as ``Repository/writeEvents(of:)`` yields it.
public struct WriteEvent<Value: Sendable>: Sendable {
    /// Which process changed.
    public let kind: WriteKind
    /// Its new state.
    public let state: WriteState<Value>

    /// Creates an event.
    public init(kind: WriteKind, state: WriteState<Value>) {
        self.kind = kind
        self.state = state
    }
}
