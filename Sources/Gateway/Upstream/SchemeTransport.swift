import HTTP1

/// Sends `http://` calls through one transport and `https://` calls through another: the
/// gateway's default pairs our own pooled HTTP/1.1 client with URLSession (we have no TLS).
public struct SchemeTransport: Transport {
    /// Carries `http://` calls.
    public let http: any Transport
    /// Carries `https://` calls.
    public let https: any Transport

    /// Creates a transport choosing by scheme.
    public init(http: any Transport, https: any Transport) {
        self.http = http
        self.https = https
    }

    /// The gateway's default: ``HTTP1Transport`` for `http://`, ``URLSessionTransport`` for `https://`.
    /// Make one per process and share it: each holds a connection pool (and an event loop) or a session.
    /// - Parameter bodyBudget: Bounds the bytes held for `http://` answers still arriving.
    public static func standard(bodyBudget: HTTPBodyBudget? = nil) -> SchemeTransport {
        SchemeTransport(
            http: HTTP1Transport(client: HTTPClient(configuration: HTTPClient.Configuration(bodyBudget: bodyBudget))),
            https: URLSessionTransport())
    }

    /// Sends `request` through ``https`` when `endpoint` is secure, else through ``http``.
    /// - Throws: whatever the chosen transport throws.
    public func send(_ request: HTTPRequest, to endpoint: UpstreamEndpoint, timeouts: UpstreamTimeouts) async throws
        -> HTTPResponse
    {
        try await carrier(for: endpoint).send(request, to: endpoint, timeouts: timeouts)
    }

    /// The carrier of ``https`` when `endpoint` is secure, else of ``http``.
    public func carrier(for endpoint: UpstreamEndpoint) -> any Transport {
        (endpoint.isSecure ? https : http).carrier(for: endpoint)
    }
}
