import Foundation
import HTTP1
import RDS

/// The operations side of one gateway process, built once by the composition root: metrics,
/// readiness and the per-request log, and the wrappers that put them on the request path.
public final class GatewayOperations: Sendable {
    /// The gateway's metrics.
    public let metrics: GatewayMetrics
    /// The readiness model behind `/health/ready`.
    public let readiness: Readiness
    /// Where request lines and lifecycle events go.
    public let logger: any Logger

    /// Creates the operations side.
    /// - Parameters:
    ///   - cacheDirectory: The disk cache folder probed by readiness; `nil` without a disk cache.
    ///   - services: The upstream service names, listed by readiness and given zero metric series.
    ///   - repositories: The repository names, given zero metric series.
    ///   - logger: The process logger.
    ///   - clock: Stamps upstream outcomes.
    public init(
        cacheDirectory: URL?, services: [String], repositories: [String], logger: any Logger,
        clock: any ClockProvider = SystemClock()
    ) {
        metrics = GatewayMetrics()
        readiness = Readiness(cacheDirectory: cacheDirectory, services: services, clock: clock)
        self.logger = logger
        for service in services { metrics.registerService(service) }
        for repository in repositories { metrics.registerRepository(repository) }
    }

    /// Puts `/metrics`, `/health/ready`, request ids, metrics and request logging around `router`.
    /// - Parameters:
    ///   - router: The gateway's own routes.
    ///   - classify: Names the route (and repository) of a request; must be cheap.
    public func handler<Router: HTTPHandler>(
        wrapping router: Router, classify: @escaping InstrumentedHandler<Router>.Classifier
    ) -> InstrumentedHandler<OperationsHandler<Router>> {
        let operations = OperationsHandler(wrapping: router, metrics: metrics, readiness: readiness)
        return InstrumentedHandler(wrapping: operations, metrics: metrics, logger: logger) { request in
            switch request.path {
            case OperationsHandler<Router>.metricsPath[...], OperationsHandler<Router>.readinessPath[...]:
                RouteClassification(route: String(request.path))
            default:
                classify(request)
            }
        }
    }

    /// Wraps the transport of the upstream service named `service`.
    public func transport(wrapping transport: any Transport, service: String) -> any Transport {
        InstrumentedTransport(wrapping: transport, service: service, metrics: metrics, readiness: readiness)
    }

    /// Reads `server`'s open connections into `rds_gateway_open_connections`.
    public func observe(_ server: HTTPServer) {
        metrics.observeOpenConnections { [weak server] in server?.openConnections ?? 0 }
    }

    /// Runs the warm-up, with `/health/ready` answering 503 meanwhile and a log event after.
    public func warmUp<Result>(_ body: () async -> Result) async -> Result {
        let start = ContinuousClock.now
        let result = await readiness.duringWarmUp(body)
        logger.log(.info, "warm_up_finished", ["duration_ms": .double((ContinuousClock.now - start).milliseconds)])
        return result
    }
}
