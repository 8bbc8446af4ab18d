extension HTTPClient {
    /// The client's pool and parsing settings.
    public struct Configuration: Sendable, Hashable {
        /// The most idle keep-alive connections kept per `host:port` on each event loop; more are
        /// closed. Default 64, as many as a busy gateway has calls under way to one upstream (with
        /// fewer, every call past them opened and closed a connection of its own).
        public var maxIdleConnectionsPerHost: Int
        /// How long an idle connection may wait in the pool before it is closed instead of reused. Default 30 s.
        public var idleTimeout: Duration
        /// Limits for responses (the body limit defaults to 16 MiB here).
        public var limits: HTTPParserLimits
        /// The client's own event loops, for callers not running on one. Default 1.
        public var eventLoopCount: Int
        /// Bounds the bytes held for responses still arriving (share one per process); `nil`: unbounded.
        public var bodyBudget: HTTPBodyBudget?

        /// Creates a configuration; every argument defaults to the documented value.
        public init(
            maxIdleConnectionsPerHost: Int = 64, idleTimeout: Duration = .seconds(30),
            limits: HTTPParserLimits = HTTPParserLimits(maxBodyBytes: 16 * 1024 * 1024), eventLoopCount: Int = 1,
            bodyBudget: HTTPBodyBudget? = nil
        ) {
            self.maxIdleConnectionsPerHost = maxIdleConnectionsPerHost
            self.idleTimeout = idleTimeout
            self.limits = limits
            self.eventLoopCount = eventLoopCount
            self.bodyBudget = bodyBudget
        }
    }
}
