extension HTTPServer.Configuration {
    /// Size limits on what a client may send.
    public struct Limits: Sendable, Equatable {
        /// What the parser accepts: request line (414), header section and count (431), body (413).
        /// Defaults: see `HTTPParserLimits`.
        public var parser: HTTPParserLimits
        /// Bytes of further (pipelined) requests buffered while a response is pending; past it
        /// the server stops reading that connection until the response is out. Default 64 KiB.
        public var maxBufferedBytes: Int
        /// A streamed body (Server-Sent Events) whose client has not taken what is queued for
        /// this long since it fell behind is closed, even if it makes slow progress. Default 30 s.
        public var maxStreamLag: Duration

        /// Creates limits; every argument has its documented default.
        public init(
            parser: HTTPParserLimits = HTTPParserLimits(), maxBufferedBytes: Int = 64 * 1_024,
            maxStreamLag: Duration = .seconds(30)
        ) {
            self.parser = parser
            self.maxBufferedBytes = maxBufferedBytes
            self.maxStreamLag = maxStreamLag
        }
    }
}
