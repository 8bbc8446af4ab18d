import Foundation

/// How long a transport waits for an upstream, in seconds.
public struct UpstreamTimeouts: Sendable, Hashable {
    /// Connecting (TCP, and TLS for `https://`).
    public var connect: TimeInterval
    /// From sending the request to the first byte of the answer (or between bytes, for URLSession).
    public var firstByte: TimeInterval
    /// The whole exchange.
    public var total: TimeInterval

    /// Creates timeouts; the defaults are 2 s to connect, 10 s to the first byte, 30 s in all.
    public init(connect: TimeInterval = 2, firstByte: TimeInterval = 10, total: TimeInterval = 30) {
        self.connect = connect
        self.firstByte = firstByte
        self.total = total
    }
}
