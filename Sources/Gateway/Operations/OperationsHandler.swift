import HTTP1

/// Answers the operator's endpoints in front of the gateway's router: `GET /metrics` (Prometheus
/// text) and `GET /health/ready` (readiness JSON, 200 or 503), and `HEAD` of both (the same status
/// and headers; the server leaves the body out); every other request goes to `inner`.
public struct OperationsHandler<Inner: HTTPHandler>: HTTPHandler {
    /// The metrics route.
    public static var metricsPath: String { "/metrics" }
    /// The readiness route.
    public static var readinessPath: String { "/health/ready" }

    private let inner: Inner
    private let metrics: GatewayMetrics
    private let readiness: Readiness

    /// Puts the operator's endpoints in front of `inner`.
    public init(wrapping inner: Inner, metrics: GatewayMetrics, readiness: Readiness) {
        self.inner = inner
        self.metrics = metrics
        self.readiness = readiness
    }

    /// `/metrics` is answered at once; others as `inner` does. Readiness probes the disk, so it
    /// takes the async path.
    public func respondImmediately(to request: inout HTTPRequest) -> HTTPResponse? {
        switch (request.method, request.path) {
        case (.get, Self.metricsPath[...]), (.head, Self.metricsPath[...]): metricsResponse()
        case (_, Self.metricsPath[...]), (_, Self.readinessPath[...]): nil
        default: inner.respondImmediately(to: &request)
        }
    }

    /// Answers the operator's endpoints, or passes the request to `inner`.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        switch (request.method, request.path) {
        case (.get, Self.metricsPath[...]), (.head, Self.metricsPath[...]):
            return metricsResponse()
        case (.get, Self.readinessPath[...]), (.head, Self.readinessPath[...]):
            let report = readiness.report()
            return HTTPResponse(
                status: report.httpStatus, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                bytes: report.jsonBytes())
        case (_, Self.metricsPath[...]), (_, Self.readinessPath[...]):
            return HTTPResponse(status: 405, headers: ["Allow": "GET, HEAD"])
        default:
            return await inner.handle(request)
        }
    }

    private func metricsResponse() -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: ["Content-Type": PrometheusTextRenderer.contentType, "Cache-Control": "no-store"],
            bytes: Array(metrics.prometheusText().utf8))
    }
}

extension OperationsHandler where Inner == GatewayRouter {
    /// ``respondImmediately(to:)`` with the route that answered, as ``GatewayRouter/classify(_:)``
    /// names it (the router tells its own, without matching the path twice).
    func classifiedImmediateAnswer(
        to request: inout HTTPRequest
    ) -> (response: HTTPResponse, route: RouteClassification)? {
        switch request.path {
        case Self.metricsPath[...], Self.readinessPath[...]:
            respondImmediately(to: &request).map { ($0, RouteClassification(route: String(request.path))) }
        default:
            inner.classifiedImmediateAnswer(to: &request)
        }
    }
}
