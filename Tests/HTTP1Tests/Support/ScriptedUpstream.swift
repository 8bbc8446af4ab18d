import Foundation
import Glibc
import Sockets
import Synchronization

@testable import HTTP1

/// A raw upstream on 127.0.0.1, port 0, answering each request with scripted bytes, so client
/// tests can produce what a real server would not: malformed answers, silences, closes.
/// Blocking sockets on threads of its own (never on the test's cooperative threads).
final class ScriptedUpstream: Sendable {
    /// What to do with one request.
    enum Action: Sendable {
        /// Write these bytes, then keep the connection for the next request or close it.
        case respond(String, thenClose: Bool = false)
        /// Write these bytes; once `release` is signalled, write `later` too (an answer nobody
        /// asked for, arriving after the client has read the first), then keep the connection.
        case respondThenLater(String, later: String, release: DispatchSemaphore)
        /// Close the connection without answering.
        case closeWithoutAnswer
        /// Never answer (until `stop()`).
        case hang
    }

    /// The bound port.
    let port: Int
    private let listener: Int32
    private let script: @Sendable (_ connection: Int, _ request: Int) -> Action
    private let state = Mutex<(accepted: Int, closed: Int, requests: [String], open: [Int32], stopped: Bool)>(
        (0, 0, [], [], false))

    /// Listens and serves until `stop()`; `script` picks the action by connection and request index (from 0).
    init(script: @escaping @Sendable (_ connection: Int, _ request: Int) -> Action) throws {
        self.script = script
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let address = try SocketAddress(host: "127.0.0.1", port: 0)
        guard fd >= 0, address.withSockAddr({ bind(fd, $0, $1) }) == 0, listen(fd, 16) == 0 else {
            throw SocketError.current("listen")
        }
        listener = fd
        port = try Socket(fd: fd).localAddress().port
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Connections accepted so far.
    var acceptedConnections: Int { state.withLock { $0.accepted } }

    /// Connections this side has closed so far.
    var closedConnections: Int { state.withLock { $0.closed } }

    /// The request lines received, in order.
    var requestLines: [String] { state.withLock { $0.requests } }

    /// Stops listening and closes every connection. Descriptors are shut down under the lock
    /// and closed only by the threads using them, so no number is reused while still in use.
    func stop() {
        state.withLock { state in
            state.stopped = true
            for fd in state.open { shutdown(fd, Int32(SHUT_RDWR)) }
            shutdown(listener, Int32(SHUT_RDWR))
        }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            let index: Int? = state.withLock { state in
                guard !state.stopped else { return nil }
                state.accepted += 1
                state.open.append(fd)
                return state.accepted - 1
            }
            guard let index else {
                close(fd)
                return
            }
            Thread.detachNewThread { [self] in serve(fd, connection: index) }
        }
    }

    private func serve(_ fd: Int32, connection: Int) {
        defer {
            state.withLock { $0.open.removeAll { $0 == fd } }
            close(fd)
            state.withLock { $0.closed += 1 }
        }
        var parser = HTTPRequestParser()
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var requestIndex = 0
        while true {
            switch parser.parse(buffer) {
            case .complete(let request, let consumed):
                buffer.removeFirst(consumed)
                state.withLock { $0.requests.append("\(request.method) \(request.target)") }
                switch script(connection, requestIndex) {
                case .respond(let text, let thenClose):
                    write(text, to: fd)
                    if thenClose { return }
                case .respondThenLater(let text, let later, let release):
                    write(text, to: fd)
                    release.wait()
                    write(later, to: fd)
                case .closeWithoutAnswer:
                    return
                case .hang:
                    while recv(fd, &chunk, chunk.count, 0) > 0 {}
                    return
                }
                requestIndex += 1
                continue
            case .invalid:
                return
            case .incomplete:
                break
            }
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { return }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    private func write(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
