import Foundation
import HTTP1
import RDSTesting
import Synchronization

/// A real OAuth2 token endpoint on a loopback port for the end-to-end tests: it checks the client
/// credentials (HTTP Basic or in the body), issues `tok-1`, `tok-2`, … valid for ``lifetime``
/// seconds on the shared manual clock, counts its requests, can hold answers behind a gate, and
/// can be stopped and started again on the same port. ``accepts(_:)`` is the upstream's check.
final class OAuth2TokenEndpoint: HTTPHandler {
    private struct State {
        var clientSecret: String
        var lifetime: Int? = 100
        var issued: [String: Date] = [:]
        var requests: [HTTPRequest] = []
        var gate: FakeGate?
    }

    let clientId: String
    let clock: ManualClock
    private let state: Mutex<State>
    private let received = CountLatch()
    private let server = Mutex<HTTPServer?>(nil)
    private let boundPort = Mutex(0)

    private init(clientId: String, clientSecret: String, clock: ManualClock) {
        self.clientId = clientId
        self.clock = clock
        state = Mutex(State(clientSecret: clientSecret))
    }

    /// Starts an endpoint on 127.0.0.1, port 0.
    static func start(clientId: String = "gateway", clientSecret: String, clock: ManualClock) async throws
        -> OAuth2TokenEndpoint
    {
        let endpoint = OAuth2TokenEndpoint(clientId: clientId, clientSecret: clientSecret, clock: clock)
        try await endpoint.listen(port: 0)
        return endpoint
    }

    private func listen(port: Int) async throws {
        let server = HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: port), handler: self)
        try await server.start()
        self.server.withLock { $0 = server }
        boundPort.withLock { $0 = server.port }
    }

    /// `http://127.0.0.1:<port>/oauth/token`.
    var tokenURL: String { "http://127.0.0.1:\(boundPort.withLock { $0 })/oauth/token" }

    /// The requests received, in order.
    var requests: [HTTPRequest] { state.withLock { $0.requests } }
    /// The number of requests received.
    var requestCount: Int { state.withLock { $0.requests.count } }

    /// The lifetime of the next tokens, in seconds; `nil` sends no `expires_in`.
    func setLifetime(_ seconds: Int?) { state.withLock { $0.lifetime = seconds } }
    /// Accepts only `secret` from now on.
    func setClientSecret(_ secret: String) { state.withLock { $0.clientSecret = secret } }
    /// Forgets every token issued: the upstream refuses them from now on.
    func revokeAll() { state.withLock { $0.issued = [:] } }

    /// Holds every later answer until ``release()``.
    func hold() { state.withLock { $0.gate = FakeGate() } }
    /// Lets held and later answers through.
    func release() { state.withLock { $0.gate.take() }?.open() }

    /// Returns once `count` requests have been received.
    func waitForRequests(_ count: Int) async { await received.wait(until: count) }

    /// `true` for `Bearer <token>` of a token issued, not revoked and not expired on the clock.
    func accepts(_ authorization: String?) -> Bool {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return false }
        let now = clock.now
        return state.withLock { $0.issued[String(authorization.dropFirst(7))].map { now < $0 } ?? false }
    }

    /// Stops listening: token requests are refused until ``restart()``.
    func stop() async { await server.withLock { $0 }?.shutdown(gracePeriod: .zero) }

    /// Listens again on the same port.
    func restart() async throws { try await listen(port: boundPort.withLock { $0 }) }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let gate = state.withLock { state in
            state.requests.append(request)
            return state.gate
        }
        received.increment()
        await gate?.pass()
        return answer(request)
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let form = Self.form(request.body)
        guard request.method == .post, form["grant_type"] == "client_credentials" else {
            return Self.json(400, #"{"error":"unsupported_grant_type"}"#)
        }
        let presented =
            Self.basicCredentials(request.headers["Authorization"])
            ?? form["client_id"].map { ($0, form["client_secret"] ?? "") }
        let now = clock.now
        return state.withLock { state in
            guard let presented, presented.0 == clientId, presented.1 == state.clientSecret else {
                return Self.json(
                    401, #"{"error":"invalid_client","error_description":"Client authentication failed"}"#,
                    headers: ["WWW-Authenticate": #"Basic realm="token""#])
            }
            let token = "tok-\(state.requests.count)"
            state.issued[token] = now + TimeInterval(state.lifetime ?? 3_600)
            let expiry = state.lifetime.map { #","expires_in":\#($0)"# } ?? ""
            return Self.json(200, #"{"access_token":"\#(token)","token_type":"Bearer"\#(expiry)}"#)
        }
    }

    private static func json(_ status: Int, _ body: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        headers["Content-Type"] = "application/json"
        headers["Cache-Control"] = "no-store"
        return HTTPResponse(status: status, headers: headers, bytes: Array(body.utf8))
    }

    /// The decoded `application/x-www-form-urlencoded` body.
    static func form(_ body: [UInt8]) -> [String: String] {
        var form: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            form[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return form
    }

    /// The client id and secret of `Basic base64(formEncoded(id):formEncoded(secret))`.
    static func basicCredentials(_ header: String?) -> (String, String)? {
        guard let header, header.hasPrefix("Basic "), let data = Data(base64Encoded: String(header.dropFirst(6))),
            let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":")
        else { return nil }
        let decode = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
        }
        return (decode(pair[..<colon]), decode(pair[pair.index(after: colon)...]))
    }
}
