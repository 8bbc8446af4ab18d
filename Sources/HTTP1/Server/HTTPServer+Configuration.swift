extension HTTPServer {
    /// Where the server listens and how it protects itself. Every field has a documented default.
    public struct Configuration: Sendable {
        /// The address to bind: an IPv4 or IPv6 literal (`127.0.0.1`, `::1`, `0.0.0.0`, `::`) or a
        /// name such as `localhost` (its first address). Default `127.0.0.1`.
        public var host: String
        /// The TCP port; `0` lets the kernel pick a free one (read it from `HTTPServer.port`). Default 8080.
        public var port: Int
        /// Size limits on requests. Defaults: see `Limits`.
        public var limits: Limits
        /// Time limits on slow clients. Defaults: see `Timeouts`.
        public var timeouts: Timeouts
        /// Open connections past which a new one makes room by closing the longest-idle
        /// connection of its event loop (one between requests; a stream only when no idle one is
        /// left). Default 16,384.
        public var maxConnections: Int
        /// Connections accepted past `maxConnections` when no room can be made: each is answered
        /// for `reservedPaths` only (others get 503 and a close), and always with
        /// `Connection: close`. With the reserve full, a new connection replaces the oldest reserve
        /// connection still waiting for its request, or is closed at once. Default 16.
        public var reservedConnections: Int
        /// The paths a reserve connection answers, e.g. health checks. Default `["/health"]`.
        public var reservedPaths: Set<String>
        /// Event-loop threads (each one epoll instance) that do all socket I/O; connections are
        /// spread over them round robin. Default 2 (the number of cores this service is sized for).
        public var eventLoopThreads: Int
        /// The `listen` backlog. Default 1,024.
        public var backlog: Int32

        /// Creates a configuration; every argument has its documented default.
        public init(
            host: String = "127.0.0.1", port: Int = 8080, limits: Limits = Limits(), timeouts: Timeouts = Timeouts(),
            maxConnections: Int = 16_384, reservedConnections: Int = 16, reservedPaths: Set<String> = ["/health"],
            eventLoopThreads: Int = 2, backlog: Int32 = 1_024
        ) {
            self.host = host
            self.port = port
            self.limits = limits
            self.timeouts = timeouts
            self.maxConnections = maxConnections
            self.reservedConnections = reservedConnections
            self.reservedPaths = reservedPaths
            self.eventLoopThreads = eventLoopThreads
            self.backlog = backlog
        }
    }
}
