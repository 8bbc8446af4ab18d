import Glibc
import Sockets

/// One open connection to Redis, used with blocking calls from one thread at a time (a
/// ``RedisConnectionSlot``'s queue): the socket is non-blocking and every wait is a `poll` with
/// the caller's deadline, so nothing waits longer than its timeout.
///
/// Opening it runs the handshake: `HELLO 3` (with `AUTH` when credentials are set) and, when the
/// server does not know `HELLO` (Redis before 6), `AUTH` and RESP2; then `SELECT` for a database
/// other than 0.
final class RedisConnection {
    /// 3 after a successful `HELLO 3`, else 2.
    private(set) var protocolVersion = 2
    private let socket: Socket
    private var parser: RESPParser
    private var isBroken = false
    private var chunk = [UInt8](repeating: 0, count: readChunk)
    private static let readChunk = 64 << 10

    private init(socket: Socket, maxReplyBytes: Int) {
        self.socket = socket
        parser = RESPParser(maxBulkBytes: maxReplyBytes)
    }

    deinit {
        socket.close()
    }

    /// `false` once an I/O or protocol failure left the connection unusable, or once the server
    /// closed it while it sat idle (a restarted Redis): the slot then reconnects before sending.
    var isUsable: Bool { !isBroken && socket.isIdleAndOpen() }

    /// Connects and runs the handshake within `configuration.connectTimeout`.
    /// - Throws: ``RedisError``: `unavailable` (refused, unreachable), `timeout`, `authentication`.
    static func open(_ configuration: RedisConfiguration) throws(RedisError) -> RedisConnection {
        let deadline = ContinuousClock.now + configuration.connectTimeout
        let address: SocketAddress
        do {
            switch configuration.endpoint {
            case .tcp(let host, let port): address = try SocketAddress(host: host, port: port)
            case .unix(let path): address = try SocketAddress(unixPath: path)
            }
        } catch {
            throw RedisError(.unavailable, "Redis at \(configuration.endpoint) does not resolve: \(reason(error)).")
        }
        let started: (socket: Socket, isConnected: Bool)
        do {
            started = try Socket.connect(to: address)
        } catch {
            throw RedisError(.unavailable, "Cannot connect to Redis at \(configuration.endpoint): \(reason(error)).")
        }
        let connection = RedisConnection(socket: started.socket, maxReplyBytes: configuration.maxReplyBytes)
        if !started.isConnected {
            guard started.socket.wait(for: Int16(POLLOUT), until: deadline) else {
                throw RedisError(.timeout, "Connecting to Redis at \(configuration.endpoint) timed out.")
            }
            let code = started.socket.pendingError()
            guard code == 0 else {
                let reason = SocketError(operation: "connect", code: code).message
                throw RedisError(.unavailable, "Cannot connect to Redis at \(configuration.endpoint): \(reason).")
            }
        }
        try connection.handshake(configuration, deadline: deadline)
        return connection
    }

    private func handshake(_ configuration: RedisConfiguration, deadline: ContinuousClock.Instant) throws(RedisError) {
        var hello = RedisCommand("HELLO", "3")
        if let password = configuration.password {
            hello.arguments += [Array("AUTH".utf8), Array((configuration.username ?? "default").utf8), Array(password.utf8)]
        }
        let reply = try roundTrip([hello], deadline: deadline)[0]
        if case .error(let text) = reply {
            if Self.isAuthenticationError(text) { throw Self.authenticationFailure(text) }
            // Redis before 6 has no HELLO: authenticate the old way and speak RESP2.
            if let password = configuration.password {
                let auth =
                    configuration.username.map { RedisCommand("AUTH", $0, password) } ?? RedisCommand("AUTH", password)
                if case .error(let text) = try roundTrip([auth], deadline: deadline)[0] {
                    throw Self.authenticationFailure(text)
                }
            }
        } else {
            protocolVersion = 3
        }
        if configuration.database != 0 {
            if case .error(let text) = try roundTrip([RedisCommand("SELECT", String(configuration.database))], deadline: deadline)[0] {
                throw RedisError(.configuration, "Redis refused SELECT \(configuration.database): \(text)")
            }
        }
    }

    private static func reason(_ error: any Error) -> String {
        (error as? SocketError)?.message ?? "\(error)"
    }

    private static func isAuthenticationError(_ text: String) -> Bool {
        ["WRONGPASS", "NOAUTH", "NOPERM"].contains { text.hasPrefix($0) }
            || text.contains("invalid username-password") || text.contains("no password is set")
    }

    private static func authenticationFailure(_ text: String) -> RedisError {
        RedisError(.authentication, "Redis refused the credentials: \(text.prefix(120))")
    }

    /// Sends `commands` in one write (a pipeline) and reads one reply per command, skipping
    /// out-of-band push messages. Error replies are returned as ``RESPValue/error(_:)``.
    /// - Throws: ``RedisError`` (`timeout`, `protocolError`); the connection is unusable then.
    func roundTrip(_ commands: [RedisCommand], deadline: ContinuousClock.Instant) throws(RedisError) -> [RESPValue] {
        do {
            try write(RESPEncoder.encode(commands), deadline: deadline)
            var replies: [RESPValue] = []
            replies.reserveCapacity(commands.count)
            while replies.count < commands.count {
                let reply = try readReply(deadline: deadline)
                if case .push = reply { continue }
                replies.append(reply)
            }
            return replies
        } catch {
            isBroken = true
            throw error
        }
    }

    private func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(RedisError) {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { socket.send(UnsafeRawBufferPointer(rebasing: $0[sent...])) }
            switch result {
            case .sent(let count): sent += count
            case .wouldBlock:
                guard socket.wait(for: Int16(POLLOUT), until: deadline) else {
                    throw RedisError(.timeout, "Redis did not take the command in time.")
                }
            case .failed(let code):
                throw RedisError(.protocolError, "Writing to Redis failed: \(SocketError(operation: "send", code: code).message).")
            }
        }
    }

    private func readReply(deadline: ContinuousClock.Instant) throws(RedisError) -> RESPValue {
        while true {
            if let reply = try parser.next() { return reply }
            let result = chunk.withUnsafeMutableBytes { socket.read(into: $0) }
            switch result {
            case .bytes(let count): parser.append(chunk[..<count])
            case .wouldBlock:
                guard socket.wait(for: Int16(POLLIN), until: deadline) else {
                    throw RedisError(.timeout, "Redis did not answer in time.")
                }
            case .closed: throw RedisError(.protocolError, "Redis closed the connection.")
            case .failed(let code):
                throw RedisError(.protocolError, "Reading from Redis failed: \(SocketError(operation: "read", code: code).message).")
            }
        }
    }
}
