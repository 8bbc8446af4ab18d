extension HTTPServer {
    /// What happened to new connections that found the server full, since it started.
    public struct SlotCounts: Sendable, Equatable {
        /// A connection was closed to make room for a new one (an idle one, else a stream).
        public var madeRoom: Int
        /// A new connection was served from the reserve (its health-check paths only).
        public var servedFromReserve: Int
        /// A new connection was closed at once: no room, and the reserve full of busy connections.
        public var refused: Int

        /// Creates counts.
        public init(madeRoom: Int = 0, servedFromReserve: Int = 0, refused: Int = 0) {
            self.madeRoom = madeRoom
            self.servedFromReserve = servedFromReserve
            self.refused = refused
        }
    }

    /// What happened to new connections that found the server full, since it started.
    public var slotCounts: SlotCounts { tracker.slotCounts }
}
