import Glibc
import Sockets

extension EventLoop {
    /// The HTTP connections among the loop's channels.
    var httpConnections: [HTTPConnection] { channels.compactMap { $0 as? HTTPConnection } }

    /// Closes the connection this loop can best spare to make room for a new one: the
    /// longest-idle one between requests, else the longest-running stream (Server-Sent Events).
    /// A connection whose next request is already waiting unread is not idle. Returns `false`,
    /// closing nothing, when every connection is in the middle of a request.
    /// - Parameter handingOverSlot: The new connection takes the closed one's place in the
    ///   connection count (it was not counted in).
    func closeConnectionToMakeRoom(handingOverSlot: Bool = false) -> Bool {
        let spare = httpConnections.filter { !$0.isReserved && ($0.machine.isIdle || $0.machine.isStreaming) }
        let idle = spare.filter { $0.machine.isIdle }
        let streams = spare.filter { $0.machine.isStreaming }
        guard let victim = Self.longestIdleWithoutInput(idle) ?? Self.longestIdle(streams) else { return false }
        victim.close(releasingSlot: !handingOverSlot)
        return true
    }

    /// Closes the oldest reserve connection that has not sent a whole request yet, handing its
    /// place to a new reserve connection: clients that open connections and send nothing cannot
    /// keep a health check out of the reserve. Returns `false` when there is none.
    func closeReserveConnectionToMakeRoom() -> Bool {
        let waiting = httpConnections.filter { connection in
            guard connection.isReserved else { return false }
            switch connection.machine.state {
            case .waitingForRequest, .readingHead, .readingBody: return true
            case .responding, .closing, .closed: return false
            }
        }
        guard let victim = Self.longestIdleWithoutInput(waiting) else { return false }
        victim.close(releasingSlot: false)
        return true
    }

    /// Asks every connection to finish its current request and close (graceful shutdown).
    func drainConnections() {
        for connection in httpConnections { connection.drain() }
    }

    private static func longestIdle(_ connections: [HTTPConnection]) -> HTTPConnection? {
        connections.min { $0.machine.idleSince < $1.machine.idleSince }
    }

    /// The longest-idle of `connections` with no unread input (a few are tried: input waiting
    /// unread is a request arriving, whose connection is not idle after all).
    private static func longestIdleWithoutInput(_ connections: [HTTPConnection]) -> HTTPConnection? {
        var candidates = connections
        for _ in 0..<8 {
            guard let best = longestIdle(candidates) else { return nil }
            if !hasUnreadInput(best) { return best }
            candidates.removeAll { $0 === best }
        }
        return nil
    }

    /// Whether bytes wait in the socket that the loop has not read yet (a request arriving).
    private static func hasUnreadInput(_ connection: HTTPConnection) -> Bool {
        var byte: UInt8 = 0
        return Glibc.recv(connection.socket.fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) > 0
    }
}
