import Dispatch
import Glibc
import Sockets

@testable import HTTP1

/// A test client that sends exact bytes over a real TCP connection and reads raw answers.
/// Its blocking calls run on a queue of their own (a serial queue gets its own thread, unlike the
/// CPU-wide global queue), never on the tests' cooperative threads; every
/// read gives up after `readTimeout` (so a broken server fails a test instead of hanging it).
final class RawHTTPClient: Sendable {
    /// The connected descriptor.
    let fd: Int32
    private let onClose: @Sendable () -> Void

    fileprivate init(fd: Int32, onClose: @escaping @Sendable () -> Void = {}) {
        self.fd = fd
        self.onClose = onClose
    }

    /// Connects to `host:port` (blocking connect, off the cooperative pool).
    static func connect(host: String = "127.0.0.1", port: Int, readTimeout: Duration = .seconds(5)) async throws
        -> RawHTTPClient
    {
        let address = try SocketAddress(host: host, port: port)
        return try await offload {
            let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw SocketError.current("socket") }
            let status = address.withSockAddr { Glibc.connect(fd, $0, $1) }
            guard status == 0 else {
                let error = SocketError.current("connect(\(address))")
                Glibc.close(fd)
                throw error
            }
            return adopting(Socket(fd: fd), readTimeout: readTimeout)
        }
    }

    /// Sends every byte.
    func send(_ bytes: [UInt8]) async throws {
        try await Self.offload { [fd] in
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                guard sent > 0 else { throw SocketError.current("send") }
                offset += sent
            }
        }
    }

    /// Sends a string's UTF-8 bytes.
    func send(_ text: String) async throws { try await send(Array(text.utf8)) }

    /// Reads until `isDone` accepts what was read, the server closes, or the read times out.
    func read(until isDone: @escaping @Sendable ([UInt8]) -> Bool = { _ in false }) async -> [UInt8] {
        await Self.offload { [fd] in
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while !isDone(received) {
                let count = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                received.append(contentsOf: chunk[..<count])
            }
            return received
        }
    }

    /// Reads until the server closes the connection (or the read times out).
    func readToEnd() async -> String { String(decoding: await read(), as: UTF8.self) }

    /// Reads until `count` complete responses (each framed by `Content-Length`, head end for
    /// bodiless ones) are in, and returns them as text.
    func readResponses(_ count: Int) async -> String {
        String(decoding: await read(until: { RawHTTPResponses.count(in: $0) >= count }), as: UTF8.self)
    }

    /// Whether the server closed the connection: a read returns end of stream (or a reset).
    func isClosedByServer() async -> Bool {
        await Self.offload { [fd] in
            var byte: UInt8 = 0
            return Glibc.recv(fd, &byte, 1, 0) == 0 || errno == ECONNRESET
        }
    }

    /// Closes the connection.
    func close() {
        Glibc.close(fd)
        onClose()
    }

    /// Closes with a reset (`SO_LINGER` 0) instead of a FIN, as an aborting client does.
    func abort() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        Glibc.close(fd)
        onClose()
    }

    private static func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "raw-http-client").async { continuation.resume(with: Result { try work() }) }
        }
    }

    private static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "raw-http-client").async { continuation.resume(returning: work()) }
        }
    }
}

extension RawHTTPClient {
    /// Takes over a connected socket, made blocking with a read timeout; `onClose` runs after
    /// `close()` or `abort()`.
    static func adopting(
        _ socket: Socket, readTimeout: Duration = .seconds(5), onClose: @escaping @Sendable () -> Void = {}
    ) -> RawHTTPClient {
        _ = fcntl(socket.fd, F_SETFL, fcntl(socket.fd, F_GETFL) & ~O_NONBLOCK)
        var timeout = timeval(
            tv_sec: Int(readTimeout.components.seconds),
            tv_usec: Int(readTimeout.components.attoseconds / 1_000_000_000_000))
        _ = setsockopt(socket.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return RawHTTPClient(fd: socket.fd, onClose: onClose)
    }
}
