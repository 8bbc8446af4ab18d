import Foundation
import HTTP1
import Synchronization

/// The fake upstream behind the gateway in end-to-end tests: a real HTTP1 server on port 0 whose
/// answers are scripted per path; it counts calls, keeps the requests, and can hold answers
/// behind a gate or delay them.
final class EndToEndUpstream: HTTPHandler {
    /// One scripted answer.
    struct Reply: Sendable {
        var status = 200
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        var body = ""
        /// Sleep this long before answering (for upstream timeouts).
        var delay: Duration?
        /// Wait for ``EndToEndUpstream/openGate()`` before answering.
        var waitForGate = false
    }

    typealias Responder = @Sendable (_ request: HTTPRequest, _ call: Int) -> Reply

    private struct State {
        var responders: [String: Responder] = [:]
        var requests: [String: [HTTPRequest]] = [:]
        var gateOpen = false
        var held: [CheckedContinuation<Void, Never>] = []
        var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var arrivals = 0
    }

    private let state = Mutex(State())
    private let running = Mutex<HTTPServer?>(nil)

    /// Starts an upstream on 127.0.0.1, port 0.
    static func start() async throws -> EndToEndUpstream {
        let upstream = EndToEndUpstream()
        let server = HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), handler: upstream)
        try await server.start()
        upstream.running.withLock { $0 = server }
        return upstream
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: String { "http://127.0.0.1:\(running.withLock { $0?.port ?? 0 })" }

    /// Scripts the answers for `path` (without query); `call` counts from 1.
    func on(_ path: String, _ responder: @escaping Responder) {
        state.withLock { $0.responders[path] = responder }
    }

    /// The number of requests `path` received.
    func calls(_ path: String) -> Int { state.withLock { $0.requests[path]?.count ?? 0 } }

    /// The requests `path` received, in order.
    func requests(_ path: String) -> [HTTPRequest] { state.withLock { $0.requests[path] ?? [] } }

    /// Lets every held and future answer through.
    func openGate() {
        let held = state.withLock { state in
            state.gateOpen = true
            defer { state.held = [] }
            return state.held
        }
        held.forEach { $0.resume() }
    }

    /// Returns once `count` requests have arrived at the gate.
    func waitForArrivals(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.arrivals >= count { return true }
                state.arrivalWaiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let path = String(request.path)
        let (responder, call) = state.withLock { state in
            state.requests[path, default: []].append(request)
            return (state.responders[path], state.requests[path]?.count ?? 1)
        }
        guard let responder else { return HTTPResponse(status: 404, bytes: Array("unscripted \(path)".utf8)) }
        let reply = responder(request, call)
        if reply.waitForGate { await passGate() }
        if let delay = reply.delay { try? await Task.sleep(for: delay) }
        return HTTPResponse(status: reply.status, headers: reply.headers, bytes: Array(reply.body.utf8))
    }

    private func passGate() async {
        await withCheckedContinuation { continuation in
            let (passNow, woken) = state.withLock { state in
                state.arrivals += 1
                let woken = state.arrivalWaiters.filter { $0.count <= state.arrivals }.map(\.continuation)
                state.arrivalWaiters.removeAll { $0.count <= state.arrivals }
                if !state.gateOpen { state.held.append(continuation) }
                return (state.gateOpen, woken)
            }
            woken.forEach { $0.resume() }
            if passNow { continuation.resume() }
        }
    }

    /// Stops the server.
    func stop() async { await running.withLock { $0 }?.shutdown(gracePeriod: .zero) }
}
