import Foundation

/// The client behind `rds-gateway healthcheck`: one `GET /health` to the local gateway, so a
/// container's `HEALTHCHECK` needs no curl. Blocking POSIX calls under one overall deadline and a
/// bound on the bytes read.
public struct HealthCheck: Sendable, Hashable {
    /// The port called when the configuration cannot be read and neither `--port` nor `RDS_PORT` names one.
    public static let defaultPort = 8080

    /// The address to call, `127.0.0.1` by default.
    public var host: String
    /// The port to call.
    public var port: Int
    /// The path to get.
    public var path: String
    /// The most the whole check may take, in milliseconds.
    public var timeoutMilliseconds: Int32

    /// Creates a check.
    public init(host: String = "127.0.0.1", port: Int, path: String = "/health", timeoutMilliseconds: Int32 = 3000) {
        self.host = host
        self.port = port
        self.path = path
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// Sends the request and returns the answer: its status and (up to 16 KiB of) its body.
    /// - Throws: ``HealthCheckError`` when no status line arrives in time.
    public func answer() throws(HealthCheckError) -> HealthCheckAnswer {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeoutMilliseconds))
        let socket = try connect(deadline: deadline)
        defer { close(socket) }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            try wait(socket, for: Int16(POLLOUT), deadline: deadline)
            let count = request[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw .connectFailed(String(cString: strerror(errno))) }
            sent += count
        }
        // The answer ends at its Content-Length, where the connection closes, or at the bound.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < Self.maxAnswerBytes {
            try wait(socket, for: Int16(POLLIN), deadline: deadline)
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[..<min(count, Self.maxAnswerBytes - received.count)]
            if HealthCheckAnswer.isComplete(received) { break }
        }
        return try HealthCheckAnswer(parsing: received)
    }

    /// The most bytes of an answer read.
    static let maxAnswerBytes = 16_384

    private func connect(deadline: ContinuousClock.Instant) throws(HealthCheckError) -> Int32 {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let address = list else {
            throw .connectFailed("\(host) is not a numeric address: \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        let socket = Glibc.socket(
            address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard socket >= 0 else { throw .connectFailed(String(cString: strerror(errno))) }
        if Glibc.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else {
                let reason = String(cString: strerror(errno))
                close(socket)
                throw .connectFailed(reason)
            }
            do {
                try wait(socket, for: Int16(POLLOUT), deadline: deadline)
            } catch {
                close(socket)
                throw error
            }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socket, SOL_SOCKET, SO_ERROR, &failure, &length)
            guard failure == 0 else {
                close(socket)
                throw .connectFailed(String(cString: strerror(failure)))
            }
        }
        return socket
    }

    private func wait(_ socket: Int32, for events: Int16, deadline: ContinuousClock.Instant) throws(HealthCheckError) {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw .timedOut }
            let milliseconds = Int32(
                clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
                    + 1)
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw .connectFailed(String(cString: strerror(errno))) }
        }
    }
}
