extension HTTPClient {
    /// How long one `send` may take, phase by phase.
    public struct Timeouts: Sendable, Hashable {
        /// Connecting (only when no pooled connection is reused).
        public var connect: Duration
        /// From starting to send the request to the first byte of the answer.
        public var firstByte: Duration
        /// The whole call, connecting included.
        public var total: Duration

        /// Creates timeouts; the defaults are 2 s to connect, 10 s to the first byte, 30 s in all.
        public init(connect: Duration = .seconds(2), firstByte: Duration = .seconds(10), total: Duration = .seconds(30))
        {
            self.connect = connect
            self.firstByte = firstByte
            self.total = total
        }
    }
}
