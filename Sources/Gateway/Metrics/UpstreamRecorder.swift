/// One upstream service's call metrics, resolved once (see ``GatewayMetrics/recorder(service:)``):
/// its call counter and latency series are held here, so that counting a call hashes no label
/// strings; a failed call's series is found by its error code.
public final class UpstreamRecorder: Sendable {
    private let service: String
    private let calls: Counter
    private let duration: Histogram
    private let errors: MetricFamily<GatewayMetrics.ServiceErrorLabels, Counter>

    init(
        service: String, calls: Counter, duration: Histogram,
        errors: MetricFamily<GatewayMetrics.ServiceErrorLabels, Counter>
    ) {
        self.service = service
        self.calls = calls
        self.duration = duration
        self.errors = errors
    }

    /// Counts one call and its latency of `nanoseconds`; `errorCode` (e.g. `upstream_timeout`)
    /// when it failed.
    public func record(nanoseconds: Int64, errorCode: String?) {
        calls.increment()
        duration.observe(nanoseconds: nanoseconds)
        if let errorCode {
            errors.labels(GatewayMetrics.ServiceErrorLabels(service: service, code: errorCode)).increment()
        }
    }
}
