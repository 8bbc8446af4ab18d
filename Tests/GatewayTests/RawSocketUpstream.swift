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
        var requestWaiters: [(id: Int, count: Int, continuation: CheckedContinuation<[String], Never>)] = []
        var nextWaiter = 0
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
    /// can end before this upstream's thread has read what was sent), or those received so far
    /// when `limit` passes first or the upstream stops: a request that never comes fails the
    /// caller's expectation instead of hanging the test run.
    func requests(atLeast count: Int, limit: Duration = .seconds(10)) async -> [String] {
        await withCheckedContinuation { continuation in
            let waiter = state.withLock { state -> Int? in
                if state.requests.count >= count || state.stopped { return nil }
                state.nextWaiter += 1
                state.requestWaiters.append((state.nextWaiter, count, continuation))
                return state.nextWaiter
            }
            guard let waiter else { return continuation.resume(returning: requests) }
            let (seconds, attoseconds) = limit.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
                resumeWaiters { $0.id == waiter }
            }
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
        resumeWaiters { _ in true }
    }

    /// Hands the requests received so far to the waiters `chosen` picks, and forgets them.
    private func resumeWaiters(
        _ chosen: ((id: Int, count: Int, continuation: CheckedContinuation<[String], Never>)) -> Bool
    ) {
        let (requests, woken) = state.withLock { state in
            let woken = state.requestWaiters.filter(chosen).map(\.continuation)
            state.requestWaiters.removeAll(where: chosen)
            return (state.requests, woken)
        }
        woken.forEach { $0.resume(returning: requests) }
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
            let received = state.withLock { state in
                state.requests.append(head)
                return state.requests.count
            }
            resumeWaiters { $0.count <= received }
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
