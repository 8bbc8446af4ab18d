import Sockets
import Synchronization

extension HTTPClient {
    /// One `host:port` the client calls, made once per client (``HTTPClient/destination(host:port:)``):
    /// its pool key, its resolved address and its idle connections. A caller that keeps it sends
    /// without building the `host:port` key and looking the pool up by it on every call.
    public final class Destination: Sendable {
        /// The host name or address (IPv6 without brackets).
        public let host: String
        /// The port.
        public let port: Int
        /// `host:port`, an IPv6 literal in brackets.
        let endpoint: String
        /// The address, once resolved (the resolver blocks: once per destination).
        let address = Mutex<SocketAddress?>(nil)
        /// Idle connections by loop, the most recently used last.
        private let idle = Mutex<[IdleConnections]>([])

        /// The idle connections of one loop (an element of a type whose size is known only at run
        /// time, as `ContinuousClock.Instant`'s, would be copied through the runtime: each
        /// connection knows since when it is idle, ``HTTPClientConnection/idleSince``).
        private struct IdleConnections {
            let loop: ObjectIdentifier
            var connections: [HTTPClientConnection]
        }

        init(host: String, port: Int) {
            self.host = host
            self.port = port
            endpoint = Self.endpoint(host: host, port: port)
        }

        /// `host:port`, the destination's key; an IPv6 literal in brackets.
        static func endpoint(host: String, port: Int) -> String { "\(HTTPSerializer.bracketed(host)):\(port)" }

        /// Takes the most recently pooled idle connection of `loop`, if any.
        func takeIdle(on loop: EventLoop) -> HTTPClientConnection? {
            let loop = ObjectIdentifier(loop)
            return idle.withLock { lists in
                guard let index = lists.firstIndex(where: { $0.loop == loop }) else { return nil }
                return lists[index].connections.popLast()
            }
        }

        /// Pools `connection` unless its loop holds `limit` idle connections already.
        func pool(_ connection: HTTPClientConnection, limit: Int) -> Bool {
            let loop = ObjectIdentifier(connection.loop)
            return idle.withLock { lists in
                guard let index = lists.firstIndex(where: { $0.loop == loop }) else {
                    guard limit > 0 else { return false }
                    lists.append(IdleConnections(loop: loop, connections: [connection]))
                    return true
                }
                guard lists[index].connections.count < limit else { return false }
                lists[index].connections.append(connection)
                return true
            }
        }

        /// Takes every idle connection, of every loop.
        func takeAllIdle() -> [HTTPClientConnection] {
            idle.withLock { lists in
                defer { lists.removeAll() }
                return lists.flatMap(\.connections)
            }
        }

        /// How many idle connections are still fit for reuse.
        var idleCount: Int {
            idle.withLock { lists in lists.reduce(0) { $0 + $1.connections.count { !$0.isRetired } } }
        }
    }
}
