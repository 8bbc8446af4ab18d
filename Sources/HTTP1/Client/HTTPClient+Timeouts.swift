import Sockets

extension HTTPClient {
    /// How long one `send` may take, phase by phase, in nanoseconds: what a deadline on the
    /// loop's clock (``Sockets/LoopInstant``) adds. (A `Duration` added to an instant is taken
    /// apart through 128-bit arithmetic, ~100 instructions per deadline of every call.)
    public struct Timeouts: Sendable, Hashable {
        /// Connecting (only when no pooled connection is reused).
        public var connectNanoseconds: Int64
        /// From starting to send the request to the first byte of the answer.
        public var firstByteNanoseconds: Int64
        /// The whole call, connecting included.
        public var totalNanoseconds: Int64

        /// Creates timeouts; the defaults are 2 s to connect, 10 s to the first byte, 30 s in all.
        public init(connect: Duration = .seconds(2), firstByte: Duration = .seconds(10), total: Duration = .seconds(30))
        {
            self.init(
                connectNanoseconds: LoopInstant.nanoseconds(of: connect),
                firstByteNanoseconds: LoopInstant.nanoseconds(of: firstByte),
                totalNanoseconds: LoopInstant.nanoseconds(of: total))
        }

        /// Creates timeouts of so many nanoseconds.
        public init(connectNanoseconds: Int64, firstByteNanoseconds: Int64, totalNanoseconds: Int64) {
            self.connectNanoseconds = connectNanoseconds
            self.firstByteNanoseconds = firstByteNanoseconds
            self.totalNanoseconds = totalNanoseconds
        }
    }
}
