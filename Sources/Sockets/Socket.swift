import Glibc

/// A non-blocking stream socket: a thin, copyable handle over a file descriptor.
///
/// The owner decides when to `close()`; every call returns at once (`wouldBlock` instead of waiting).
public struct Socket: Sendable, Hashable {
    /// The file descriptor.
    public let fd: Int32

    /// Wraps an open descriptor (the caller hands over ownership).
    public init(fd: Int32) {
        self.fd = fd
    }

    /// The outcome of a `read`.
    public enum ReadResult: Equatable {
        /// This many bytes were read (at least one).
        case bytes(Int)
        /// Nothing to read now.
        case wouldBlock
        /// The peer closed its side (end of stream).
        case closed
        /// The read failed with this `errno` (e.g. `ECONNRESET`).
        case failed(Int32)
    }

    /// The outcome of a `send`.
    public enum SendResult: Equatable {
        /// This many bytes were accepted by the kernel (maybe fewer than offered).
        case sent(Int)
        /// The send buffer is full.
        case wouldBlock
        /// The send failed with this `errno` (e.g. `EPIPE`).
        case failed(Int32)
    }

    /// Creates a listening socket bound to `address`, with `SO_REUSEADDR` (and `IPV6_V6ONLY`
    /// for IPv6, so `::` and `0.0.0.0` can be bound side by side).
    /// - Throws: `SocketError` naming the failed call, e.g. `bind(127.0.0.1:8080)` with `EADDRINUSE`.
    public static func listen(on address: SocketAddress, backlog: Int32) throws -> Socket {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = Glibc.socket(address.family, type, 0)
        guard fd >= 0 else { throw SocketError.current("socket(\(address))") }
        let socket = Socket(fd: fd)
        do {
            try socket.setOption(level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
            if address.family == AF_INET6 {
                try socket.setOption(level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY, value: 1)
            }
            let bound = address.withSockAddr { Glibc.bind(fd, $0, $1) }
            guard bound == 0 else { throw SocketError.current("bind(\(address))") }
            guard Glibc.listen(fd, backlog) == 0 else { throw SocketError.current("listen(\(address))") }
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// A connected pair of non-blocking Unix-domain stream sockets (tests drive connections over it).
    /// - Throws: `SocketError` when the kernel refuses.
    public static func makePair() throws -> (Socket, Socket) {
        var fds: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { throw SocketError.current("socketpair") }
        return (Socket(fd: fds[0]), Socket(fd: fds[1]))
    }

    /// Accepts one pending connection, made non-blocking and close-on-exec, with its peer address;
    /// `nil` when none is pending.
    /// - Throws: `SocketError` for failures other than "nothing pending" or an aborted handshake.
    public func accept() throws -> (Socket, SocketAddress)? {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(fd, $0, &length) }
            }
            if client >= 0 {
                let socket = Socket(fd: client)
                _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                return (socket, SocketAddress(storage: storage, length: length))
            }
            switch errno {
            case EAGAIN, EWOULDBLOCK: return nil
            case EINTR, ECONNABORTED, EPROTO: continue
            default: throw SocketError.current("accept")
            }
        }
    }

    /// Reads what is available into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case let code: return .failed(code)
            }
        }
    }

    /// Sends as much of `bytes` as the kernel takes now, never raising `SIGPIPE` (`MSG_NOSIGNAL`).
    public func send(_ bytes: UnsafeRawBufferPointer) -> SendResult {
        while true {
            let count = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if count >= 0 { return .sent(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case let code: return .failed(code)
            }
        }
    }

    /// Sets an integer socket option.
    /// - Throws: `SocketError` from `setsockopt`.
    public func setOption(level: Int32, name: Int32, value: Int32) throws {
        var value = value
        guard setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SocketError.current("setsockopt(\(name))")
        }
    }

    /// Disables Nagle's algorithm so small responses leave at once; ignored on non-TCP sockets.
    public func setNoDelay() {
        try? setOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
    }

    /// The address the socket is bound to (with the kernel-chosen port after binding port 0).
    /// - Throws: `SocketError` from `getsockname`.
    public func localAddress() throws -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { throw SocketError.current("getsockname") }
        return SocketAddress(storage: storage, length: length)
    }

    /// Shuts down the writing side (the peer reads end of stream), keeping the descriptor.
    public func shutdownWrite() {
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes the descriptor.
    public func close() {
        _ = Glibc.close(fd)
    }
}
