import Foundation
import Glibc
import Sockets
import Synchronization

/// A tiny blocking HTTP/1.1 upstream on 127.0.0.1, port 0, for transport tests that need bytes no
/// well-behaved server would send (malformed answers, silence). One thread per connection: test code only.
///
/// Each request head (and its `Content-Length` body) is handed to `respond`, whose bytes are written
/// back; `nil` means "say nothing" until ``stop()``. Connections stay open for further requests
/// unless `closeAfterReply` is set.
final class RawSocketUpstream: Sendable {
    typealias Responder = @Sendable (_ request: String, _ body: [UInt8]) -> [UInt8]?

    /// The bound port.
    let port: Int
    private let listener: Int32
    private let respond: Responder
    private let closeAfterReply: Bool
    private struct State {
        var requests: [String] = []
        var connections = 0
        var open: [Int32] = []
        var stopped = false
        var requestWaiters: [(count: Int, continuation: CheckedContinuation<[String], Never>)] = []
    }

    private let state = Mutex(State())

    /// Starts listening.
    init(closeAfterReply: Bool = false, respond: @escaping Responder) throws {
        (listener, port) = try LoopbackSocket.bind(listeningWith: 16)
        self.respond = respond
        self.closeAfterReply = closeAfterReply
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Answers every request with `response`.
    convenience init(response: String, closeAfterReply: Bool = false) throws {
        try self.init(closeAfterReply: closeAfterReply) { _, _ in Array(response.utf8) }
    }

    /// The request heads received so far.
    var requests: [String] { state.withLock { $0.requests } }
    /// The connections accepted so far.
    var connections: Int { state.withLock { $0.connections } }

    /// The request heads received, once there are at least `count` (the client's side of a call
    /// can end before this upstream's thread has read what was sent).
    func requests(atLeast count: Int) async -> [String] {
        await withCheckedContinuation { continuation in
            let received = state.withLock { state -> [String]? in
                if state.requests.count >= count { return state.requests }
                state.requestWaiters.append((count, continuation))
                return nil
            }
            if let received { continuation.resume(returning: received) }
        }
    }

    /// Stops listening and closes every connection. Shutting down happens under the lock that
    /// closing a connection also takes, so a descriptor number reused elsewhere is never touched.
    func stop() {
        state.withLock { state in
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for descriptor in state.open { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    deinit { close(listener) }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let stopped = state.withLock { state in
                state.connections += 1
                if state.stopped {
                    close(connection)
                } else {
                    state.open.append(connection)
                }
                return state.stopped
            }
            if stopped { return }
            Thread.detachNewThread { [self] in serve(connection) }
        }
    }

    private func serve(_ connection: Int32) {
        defer {
            state.withLock { state in
                state.open.removeAll { $0 == connection }
                close(connection)
            }
        }
        var buffer: [UInt8] = []
        while let (head, body) = readRequest(connection, buffer: &buffer) {
            let (requests, woken) = state.withLock { state in
                state.requests.append(head)
                let woken = state.requestWaiters.filter { $0.count <= state.requests.count }.map(\.continuation)
                state.requestWaiters.removeAll { $0.count <= state.requests.count }
                return (state.requests, woken)
            }
            woken.forEach { $0.resume(returning: requests) }
            guard let reply = respond(head, body) else {
                while readMore(connection, into: &buffer) {}
                return
            }
            var written = 0
            while written < reply.count {
                let count = reply[written...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                written += count
            }
            if closeAfterReply { return }
        }
    }

    private func readRequest(_ connection: Int32, buffer: inout [UInt8]) -> (String, [UInt8])? {
        let separator = Array("\r\n\r\n".utf8)
        while true {
            if let end = buffer.indices.dropLast(3).first(where: { buffer[$0..<$0 + 4].elementsEqual(separator) }) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                let length = head.split(separator: "\r\n").compactMap { line -> Int? in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                    return Int(parts[1].trimmingCharacters(in: .whitespaces))
                }.first ?? 0
                while buffer.count < end + 4 + length {
                    guard readMore(connection, into: &buffer) else { return nil }
                }
                let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                return (head, body)
            }
            guard readMore(connection, into: &buffer) else { return nil }
        }
    }

    private func readMore(_ connection: Int32, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }
}
