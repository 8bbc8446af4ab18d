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
        switch Self.route(of: request.path) {
        case .metrics?: Self.isReading(request) ? metricsResponse() : nil
        case .readiness?: nil
        case nil: inner.respondImmediately(to: &request)
        }
    }

    /// Answers the operator's endpoints, or passes the request to `inner`.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        guard let route = Self.route(of: request.path) else { return await inner.handle(request) }
        guard Self.isReading(request) else { return HTTPResponse(status: 405, headers: ["Allow": "GET, HEAD"]) }
        switch route {
        case .metrics:
            return metricsResponse()
        case .readiness:
            let report = readiness.report()
            return HTTPResponse(
                status: report.httpStatus, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                bytes: report.jsonBytes())
        }
    }

    /// The operator's endpoints.
    private enum Route {
        case metrics, readiness
    }

    /// The operator's endpoint at `path`, if any (compared over bytes: see ``GatewayRouter/path(_:is:)``).
    private static func route(of path: Substring) -> Route? {
        if GatewayRouter.path(path, is: metricsPath) { return .metrics }
        if GatewayRouter.path(path, is: readinessPath) { return .readiness }
        return nil
    }

    /// `true` for `GET` and `HEAD`, the methods the operator's endpoints answer.
    private static func isReading(_ request: HTTPRequest) -> Bool { request.method == .get || request.method == .head }

    private func metricsResponse() -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: ["Content-Type": PrometheusTextRenderer.contentType, "Cache-Control": "no-store"],
            bytes: Array(metrics.prometheusText().utf8))
    }
}

extension OperationsHandler where Inner == GatewayRouter {
    /// ``respondImmediately(to:)`` with the route that answered, as ``GatewayRouter/classify(_:)``
    /// names it (the router tells its own, without matching the path twice), and the answer's
    /// `X-Cache` value (none for the operator's endpoints).
    func classifiedImmediateAnswer(
        to request: inout HTTPRequest
    ) -> (response: HTTPResponse, route: RouteClassification, xCache: String?)? {
        guard Self.route(of: request.path) != nil else { return inner.classifiedImmediateAnswer(to: &request) }
        return respondImmediately(to: &request).map { ($0, RouteClassification(route: String(request.path)), nil) }
    }
}
