import Foundation
import HTTP1
import Synchronization

/// An upstream's change stream in tests: a real HTTP1 server on port 0 answering `GET /changes`
/// with Server-Sent Events the test sends, one connection at a time; it keeps each request's
/// `Last-Event-ID` and can end the current stream (as a restarting source would).
final class ChangeStreamUpstream: HTTPHandler {
    private struct State {
        var current: AsyncStream<[UInt8]>.Continuation?
        var lastEventIDs: [String?] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    private let running = Mutex<HTTPServer?>(nil)

    /// Starts the server on 127.0.0.1, port 0.
    static func start() async throws -> ChangeStreamUpstream {
        let upstream = ChangeStreamUpstream()
        let server = HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), handler: upstream)
        try await server.start()
        upstream.running.withLock { $0 = server }
        return upstream
    }

    /// `http://127.0.0.1:<port>/changes`.
    var url: String { "http://127.0.0.1:\(running.withLock { $0?.port ?? 0 })/changes" }

    /// The `Last-Event-ID` of each connection so far, in order.
    var lastEventIDs: [String?] { state.withLock { $0.lastEventIDs } }

    /// Returns once `count` connections have been opened.
    func waitForConnections(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.lastEventIDs.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Sends `text` (one or more whole events) on the current stream.
    func send(_ text: String) { _ = state.withLock { $0.current?.yield(Array(text.utf8)) } }

    /// Ends the current stream.
    func endStream() { state.withLock { $0.current?.finish() } }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        let woken = state.withLock { state in
            state.current = continuation
            state.lastEventIDs.append(request.headers["Last-Event-ID"])
            let due = state.waiters.filter { $0.count <= state.lastEventIDs.count }
            state.waiters.removeAll { $0.count <= state.lastEventIDs.count }
            return due.map(\.continuation)
        }
        woken.forEach { $0.resume() }
        continuation.yield(Array("retry: 10\n\n".utf8))
        return HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: .stream(stream))
    }

    /// Stops the server.
    func stop() async {
        endStream()
        await running.withLock { $0 }?.shutdown(gracePeriod: .zero)
    }
}
