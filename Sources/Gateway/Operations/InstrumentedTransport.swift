import HTTP1

/// Wraps a service's ``Transport``: sends the current ``RequestID`` upstream as `X-Request-ID` (in
/// place of any other value the request carries), and records each call's latency and outcome in
/// ``GatewayMetrics`` and ``Readiness``.
///
/// A call fails when the transport throws (its ``TransportError`` code) or the upstream answers
/// 5xx (`http_<status>`). A cancelled call is counted but does not mark the upstream as failing.
public struct InstrumentedTransport: Transport {
    private let inner: any Transport
    private let service: String
    private let recorder: UpstreamRecorder
    private let readiness: Readiness

    /// Wraps `inner`, the transport of the service named `service`.
    public init(wrapping inner: any Transport, service: String, metrics: GatewayMetrics, readiness: Readiness) {
        self.inner = inner
        self.service = service
        self.recorder = metrics.recorder(service: service)
        self.readiness = readiness
    }

    /// Sends through the wrapped transport, adding the request id and recording the outcome.
    public func send(_ request: HTTPRequest, to endpoint: UpstreamEndpoint, timeouts: UpstreamTimeouts) async throws
        -> HTTPResponse
    {
        var request = request
        // The id is the gateway's, even when a client's field passed upstream (`forwardHeaders:
        // "*"`) carries another: an invalid one the gateway replaced must not travel on.
        if let id = RequestID.current, request.headers[RequestID.headerName] != id.value {
            request.headers[RequestID.headerName] = id.value
        }
        let start = ContinuousClock.now
        do {
            let response = try await inner.send(request, to: endpoint, timeouts: timeouts)
            record(errorCode: response.status >= 500 ? "http_\(response.status)" : nil, since: start)
            return response
        } catch let error as TransportError {
            record(errorCode: error.code, since: start, updatesReadiness: error.kind != .cancelled)
            throw error
        } catch is CancellationError {
            record(errorCode: TransportError.Kind.cancelled.rawValue, since: start, updatesReadiness: false)
            throw CancellationError()
        } catch {
            record(errorCode: TransportError.Kind.failed.rawValue, since: start)
            throw error
        }
    }

    private func record(errorCode: String?, since start: ContinuousClock.Instant, updatesReadiness: Bool = true) {
        recorder.record(duration: ContinuousClock.now - start, errorCode: errorCode)
        if updatesReadiness {
            readiness.recordUpstream(service: service, errorCode: errorCode)
        }
    }
}
