import Foundation
import Glibc

/// A loopback port where nothing listens and nothing else can start listening while this value
/// lives: a TCP socket bound to 127.0.0.1, port 0, without `SO_REUSEADDR` and never listening.
/// Connecting to it is refused (`ECONNREFUSED`), and the kernel hands the port to no other
/// socket, so a server started by a test running in parallel cannot answer in its place (a
/// stopped listener's port can be reused at once).
final class RefusingPort: Sendable {
    /// The reserved port.
    let port: Int
    private let descriptor: Int32

    /// Reserves a port.
    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    deinit { close(descriptor) }
}
