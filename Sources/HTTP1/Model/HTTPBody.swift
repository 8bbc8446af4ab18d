/// A response body: bytes at hand, or a stream written as it comes (Server-Sent Events).
public enum HTTPBody: Sendable {
    /// A complete body, sent with `Content-Length`.
    case bytes([UInt8])
    /// A body produced over time, sent chunked; each element is flushed as soon as it arrives.
    /// The server stops reading (and the stream's `onTermination` runs) when the client goes away.
    ///
    /// `indirect`: the stream (a type whose size is known only at run time) lives in a box, so that
    /// a body, and a request's response, has a size known when compiling: every async function
    /// passing a response along then keeps it in its frame, instead of allocating room for it (and
    /// asking the runtime for its layout) on every call.
    indirect case stream(AsyncStream<[UInt8]>)
}
