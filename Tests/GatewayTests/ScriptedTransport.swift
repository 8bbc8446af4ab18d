import Gateway
import HTTP1
import Synchronization

/// A transport for unit tests of ``HTTPService``: records every request and answers with a script.
final class ScriptedTransport: Transport {
    typealias Script = @Sendable (HTTPRequest) async throws -> HTTPResponse

    private let script: Script
    private let recorded = Mutex<[(request: HTTPRequest, endpoint: UpstreamEndpoint)]>([])

    /// Creates a transport answering with `script`.
    init(_ script: @escaping Script) { self.script = script }

    /// Creates a transport always answering `status` with `headers` and `body`.
    convenience init(status: Int, headers: HTTPHeaders = [:], body: String = "") {
        self.init { _ in HTTPResponse(status: status, headers: headers, bytes: Array(body.utf8)) }
    }

    /// Creates a transport always throwing `error`.
    convenience init(failing error: any Error) {
        self.init { _ in throw error }
    }

    /// The requests sent so far.
    var requests: [HTTPRequest] { recorded.withLock { $0.map(\.request) } }

    /// The endpoints called so far.
    var endpoints: [UpstreamEndpoint] { recorded.withLock { $0.map(\.endpoint) } }

    func send(_ request: HTTPRequest, to endpoint: UpstreamEndpoint, timeouts: UpstreamTimeouts) async throws
        -> HTTPResponse
    {
        recorded.withLock { $0.append((request: request, endpoint: endpoint)) }
        return try await script(request)
    }
}
