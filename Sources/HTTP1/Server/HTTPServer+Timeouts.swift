extension HTTPServer.Configuration {
    /// Time limits on slow or idle clients.
    public struct Timeouts: Sendable, Equatable {
        /// A request head must be complete within this time of its first byte (or of the
        /// connection opening); otherwise the server answers 408 and closes. Default 10 s.
        public var headerRead: Duration
        /// A request body must make progress at least this often, or the connection is dropped.
        /// Default 30 s.
        public var bodyRead: Duration
        /// A whole request, head and body, must arrive within this time of its first byte,
        /// however steadily it trickles; otherwise 408 (head incomplete) or the connection is
        /// dropped (body incomplete). Default 60 s.
        public var request: Duration
        /// A keep-alive connection may wait this long for its next request. Default 60 s.
        public var idleKeepAlive: Duration
        /// A blocked write (a client not reading) must make progress this often, or the
        /// connection is dropped. Default 30 s.
        public var write: Duration

        /// Creates timeouts; every argument has its documented default.
        public init(
            headerRead: Duration = .seconds(10), bodyRead: Duration = .seconds(30), request: Duration = .seconds(60),
            idleKeepAlive: Duration = .seconds(60), write: Duration = .seconds(30)
        ) {
            self.headerRead = headerRead
            self.bodyRead = bodyRead
            self.request = request
            self.idleKeepAlive = idleKeepAlive
            self.write = write
        }

        /// How often the event loops look for expired deadlines: a tenth of the shortest
        /// timeout, between 10 ms and 500 ms.
        var checkInterval: Duration {
            let shortest = [headerRead, bodyRead, request, idleKeepAlive, write].min() ?? .seconds(1)
            return Swift.min(Swift.max(shortest / 10, .milliseconds(10)), .milliseconds(500))
        }
    }
}
