import Glibc

extension Socket {
    /// Starts a non-blocking connect to `address` (with `TCP_NODELAY`); returns the socket and
    /// whether it is connected already. Otherwise the socket turns writable once the attempt
    /// ends, and `pendingError()` tells how.
    /// - Throws: `SocketError` from `socket` or `connect` (e.g. `ECONNREFUSED`).
    public static func connect(to address: SocketAddress) throws -> (socket: Socket, isConnected: Bool) {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = Glibc.socket(address.family, type, 0)
        guard fd >= 0 else { throw SocketError.current("socket(\(address))") }
        let socket = Socket(fd: fd)
        socket.setNoDelay()
        var status: Int32
        repeat {
            status = address.withSockAddr { Glibc.connect(fd, $0, $1) }
        } while status != 0 && errno == EINTR
        if status == 0 { return (socket, true) }
        guard errno == EINPROGRESS else {
            let error = SocketError.current("connect(\(address))")
            socket.close()
            throw error
        }
        return (socket, false)
    }

    /// The error of a finished non-blocking connect (`SO_ERROR`); 0 when it succeeded.
    public func pendingError() -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) == 0 else { return errno }
        return value
    }

    /// `true` when an idle connection is still open and has nothing unread: the peer has not
    /// closed it, reset it, or sent bytes nobody asked for.
    public func isIdleAndOpen() -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }
}
