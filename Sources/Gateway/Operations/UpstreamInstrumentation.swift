import HTTP1

/// Watches a service's upstream calls (an ``UpstreamCallObserver``): sends the client request's
/// ``RequestID`` upstream as `X-Request-ID` (in place of any other value the request carries),
/// and records each call's latency and outcome in ``GatewayMetrics`` and ``Readiness``.
///
/// A call fails when the transport throws (its ``TransportError`` code) or the upstream answers
/// 5xx (`http_<status>`). A cancelled call is counted but does not mark the upstream as failing.
public final class UpstreamInstrumentation: UpstreamCallObserver {
    private let recorder: UpstreamRecorder
    private let health: UpstreamHealthSlot

    /// Watches the calls of the service named `service`.
    public init(service: String, metrics: GatewayMetrics, readiness: Readiness) {
        self.recorder = metrics.recorder(service: service)
        self.health = readiness.upstreamHealth(of: service)
    }

    /// Adds the request id.
    public func willSend(_ request: inout HTTPRequest, id: RequestID?) {
        // The id is the gateway's, even when a client's field passed upstream (`forwardHeaders:
        // "*"`) carries another: an invalid one the gateway replaced must not travel on.
        guard let id else { return }
        // Usually absent: then appended, without searching the fields again to replace it.
        switch request.headers[RequestID.headerName] {
        case nil: request.headers.add(name: RequestID.headerName, value: id.value)
        case .some(id.value): break
        default: request.headers[RequestID.headerName] = id.value
        }
    }

    /// Records the outcome.
    public func didEnd(_ outcome: Result<Int, any Error>, elapsedNanoseconds elapsed: Int64) {
        switch outcome {
        case .success(let status):
            record(errorCode: status >= 500 ? "http_\(status)" : nil, elapsed: elapsed)
        case .failure(let error as TransportError):
            record(errorCode: error.code, elapsed: elapsed, updatesReadiness: error.kind != .cancelled)
        case .failure(is CancellationError):
            record(errorCode: TransportError.Kind.cancelled.rawValue, elapsed: elapsed, updatesReadiness: false)
        case .failure:
            record(errorCode: TransportError.Kind.failed.rawValue, elapsed: elapsed)
        }
    }

    private func record(errorCode: String?, elapsed: Int64, updatesReadiness: Bool = true) {
        recorder.record(nanoseconds: elapsed, errorCode: errorCode)
        if updatesReadiness {
            health.record(errorCode: errorCode)
        }
    }
}
