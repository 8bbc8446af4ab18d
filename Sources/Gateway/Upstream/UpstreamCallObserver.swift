import HTTP1

/// Watches the upstream calls of an ``HTTPService``: amends each request before it is sent and
/// hears how each call ended. Called synchronously by the service around its transport call, so
/// that watching adds no `async` layer of its own (a wrapping ``Transport`` would cost every call
/// a frame and a switch back to the caller's executor). A class: the service's optional observer
/// is then one reference, copied with a retain, where a value's existential was copied through
/// the runtime's witnesses at each use (~100 instructions each, three per call).
public protocol UpstreamCallObserver: AnyObject, Sendable {
    /// Called with each request just before it is sent, with the id of the client's request it
    /// serves (if any); may change its fields.
    func willSend(_ request: inout HTTPRequest, id: RequestID?)
    /// Called once per call when it ended, `elapsedNanoseconds` after it was sent: with the
    /// answer's status, or with what the transport threw (a ``TransportError``, `CancellationError`,
    /// …). (Nanoseconds, not a `Duration`: making one and taking it apart again cost ~300
    /// instructions a call.)
    func didEnd(_ outcome: Result<Int, any Error>, elapsedNanoseconds: Int64)
}
