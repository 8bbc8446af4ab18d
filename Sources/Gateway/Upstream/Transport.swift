import HTTP1

/// Carries one HTTP exchange to an upstream. The ``HTTPService`` builds the request; the transport
/// only moves bytes, and never caches or follows redirects.
public protocol Transport: Sendable {
    /// Sends `request` (its `target` is the path and query) to `endpoint` and returns the whole answer
    /// with a `.bytes` body.
    ///
    /// Called by ``HTTPService`` once per upstream call. Cancelling the calling task abandons the
    /// exchange. The exchange ends by `timeouts.total` (a `timeout` error with the detail
    /// `phase: total`): a repository's fetch deadline is passed down as that timeout.
    /// - Throws: ``TransportError``; `CancellationError` when the task was cancelled.
    func send(_ request: HTTPRequest, to endpoint: UpstreamEndpoint, timeouts: UpstreamTimeouts) async throws
        -> HTTPResponse

    /// The transport that carries calls to `endpoint`: this one, unless it only hands each call
    /// to another, chosen by the endpoint alone (as ``SchemeTransport`` does), which its callers
    /// then call directly (one `async` call, frame and executor switch less per call).
    func carrier(for endpoint: UpstreamEndpoint) -> any Transport
}

extension Transport {
    /// This transport: it carries its calls itself.
    public func carrier(for endpoint: UpstreamEndpoint) -> any Transport { self }
}
