/// A response body: bytes at hand, or a stream written as it comes (Server-Sent Events).
public enum HTTPBody: Sendable {
    /// A complete body, sent with `Content-Length`.
    case bytes([UInt8])
    /// A body produced over time, sent chunked; each element is flushed as soon as it arrives.
    /// The server stops reading (and the stream's `onTermination` runs) when the client goes away.
    case stream(AsyncStream<[UInt8]>)
}
