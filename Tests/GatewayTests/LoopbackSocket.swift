import Foundation
import Glibc
import Sockets

/// Blocking TCP sockets on 127.0.0.1, port 0, for the test peers written with plain Glibc calls.
enum LoopbackSocket {
    /// A blocking socket bound to 127.0.0.1 on a port the kernel picks (no `SO_REUSEADDR`),
    /// listening with `backlog` unless that is `nil`, and the port it got.
    /// - Throws: `POSIXError` when the socket cannot be made, bound or put to listen.
    static func bind(listeningWith backlog: Int32?) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                Glibc.bind(descriptor, pointer, length) == 0 && (backlog.map { listen(descriptor, $0) == 0 } ?? true)
                    && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}
