import Foundation
import Sockets

/// A loopback listener on port 0 that answers each connection with the same canned bytes after
/// reading the request head (or stays silent), on its own thread: the peer for the health check tests.
final class CannedHTTPListener: Sendable {
    let port: Int
    private let descriptor: Int32

    /// Listens on 127.0.0.1; `answer` nil means accept and never answer.
    init(answer: String?) throws {
        let (descriptor, port) = try LoopbackSocket.bind(listeningWith: 8)
        self.descriptor = descriptor
        self.port = port
        // The thread owns the descriptor: it closes it once accept fails after stop(), so the
        // number cannot be reused by another test's socket while this thread still accepts on it.
        Thread.detachNewThread {
            var silent: [Int32] = []
            defer {
                silent.forEach { close($0) }
                close(descriptor)
            }
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                var head: [UInt8] = []
                while !head.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
                    let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { break }
                    head += buffer[..<count]
                }
                if let answer {
                    _ = Array(answer.utf8).withUnsafeBytes {
                        send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                    close(client)
                } else {
                    silent.append(client)
                }
            }
        }
    }

    /// Stops accepting; the listener's thread then closes its sockets.
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
