import Glibc
import Sockets

@testable import HTTP1

extension Socket {
    /// A socket bound to 127.0.0.1, port 0, that never listens and has no `SO_REUSEADDR`: a
    /// connection to its port is refused, and while it is open the kernel gives that port to no
    /// other socket. (A closed listener's port can be taken at once by a server of a test running
    /// in parallel, which would then answer instead of refusing.) The caller closes it.
    static func refusingPort() throws -> Socket {
        let address = try SocketAddress(host: "127.0.0.1", port: 0)
        let fd = Glibc.socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError.current("socket") }
        let socket = Socket(fd: fd)
        guard address.withSockAddr({ Glibc.bind(fd, $0, $1) }) == 0 else {
            let error = SocketError.current("bind(\(address))")
            socket.close()
            throw error
        }
        return socket
    }
}
