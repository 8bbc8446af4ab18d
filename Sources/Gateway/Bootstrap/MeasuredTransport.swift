import HTTP1
import RDS

/// A transport that counts each upstream call of one service in the metrics and in readiness
/// (latency, and the error code when the call failed or the upstream answered 5xx).
struct MeasuredTransport: Transport {
    /// The service the calls belong to.
    let service: String
    /// The transport doing the work.
    let inner: any Transport
    /// Where calls are counted.
    let metrics: GatewayMetrics
    /// Where each upstream's recent status is kept.
    let readiness: Readiness

    func send(_ request: HTTPRequest, to endpoint: UpstreamEndpoint, timeouts: UpstreamTimeouts) async throws
        -> HTTPResponse
    {
        let start = ContinuousClock.now
        do {
            let response = try await inner.send(request, to: endpoint, timeouts: timeouts)
            let code = response.status >= 500 ? ServiceError.Kind.badResponse.rawValue : nil
            record(since: start, errorCode: code)
            return response
        } catch is CancellationError {
            metrics.recordUpstreamCall(service: service, duration: ContinuousClock.now - start, errorCode: "cancelled")
            throw CancellationError()
        } catch {
            record(since: start, errorCode: (error as? any ChainedError)?.code ?? "unexpected")
            throw error
        }
    }

    private func record(since start: ContinuousClock.Instant, errorCode: String?) {
        metrics.recordUpstreamCall(service: service, duration: ContinuousClock.now - start, errorCode: errorCode)
        readiness.recordUpstream(service: service, errorCode: errorCode)
    }
}
