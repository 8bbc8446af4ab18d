/// The answer of a write (``Service/save(_:for:)`` or ``Service/delete(_:)``).
public struct WriteResult<Value: Sendable>: Sendable {
    /// What the upstream answered, handed back to the caller (for example the HTTP reply to a PUT).
    public var reply: Value?
    /// What the datastore should now hold for the key; `nil` drops the key.
    public var stored: Fetched<Value>?

    /// Creates a write result.
    public init(reply: Value?, stored: Fetched<Value>?) {
        self.reply = reply
        self.stored = stored
    }
}
