import Foundation
import Glibc
import Sockets

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
        (descriptor, port) = try LoopbackSocket.bind(listeningWith: nil)
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    deinit { close(descriptor) }
}
