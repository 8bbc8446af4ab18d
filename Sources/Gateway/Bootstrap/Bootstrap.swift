import Foundation
import HTTP1
import RDS

/// The composition root: the only place that builds providers, datastores, services and servers
/// from the configuration. Tests call it with an in-memory configuration and port 0.
public enum Bootstrap {
    /// Builds the container of `configuration`, first starting the embedded demo upstream when a
    /// service's `baseURL` is `embedded:demo`.
    /// - Parameters:
    ///   - configuration: A validated configuration.
    ///   - clock: The time source of every repository (a manual clock in tests).
    ///   - logger: The process's logger.
    ///   - transport: Carries upstream calls; by default ``SchemeTransport/standard()`` (our own
    ///     pooled HTTP/1.1 client for `http://`, URLSession for `https://`), one for the process.
    /// - Throws: ``ConfigurationError``, or `SocketError` when the demo cannot bind a loopback port.
    public static func makeContainer(
        configuration: GatewayConfiguration, clock: any ClockProvider = SystemClock(), logger: any Logger,
        transport: (any Transport)? = nil
    ) async throws -> GatewayDependencyContainer {
        let usesDemo = configuration.services.values.contains { $0.baseURL == ServiceSettings.embeddedDemo }
        let demo = usesDemo ? try await EmbeddedDemo.start() : nil
        var baseURLs: [String: URL] = [:]
        for (name, service) in configuration.services {
            if service.baseURL == ServiceSettings.embeddedDemo {
                baseURLs[name] = demo?.baseURL
            } else if let url = URL(string: service.baseURL) {
                baseURLs[name] = url
            }
        }
        let budget = HTTPBodyBudget(limit: configuration.cache.inFlightBodyBytes)
        do {
            return try GatewayDependencyContainer(
                configuration: configuration, baseURLs: baseURLs, embeddedDemo: demo, clock: clock, logger: logger,
                transport: transport ?? SchemeTransport.standard(bodyBudget: budget), inFlightBodies: budget)
        } catch {
            await demo?.server.shutdown(gracePeriod: Duration.zero)
            throw error
        }
    }

    /// The gateway's HTTP server (not started): the router behind the operations endpoints
    /// (`/metrics`, `/health/ready`) and the per-request metrics and logs.
    public static func makeServer(container: GatewayDependencyContainer) -> HTTPServer {
        let router = GatewayRouter(container: container, demo: container.embeddedDemo?.handler)
        let operations = OperationsHandler(wrapping: router, metrics: container.metrics, readiness: container.readiness)
        let instrumented = InstrumentedHandler(
            wrapping: operations, metrics: container.metrics, logger: container.logger, classify: router.classify)
        let server = HTTPServer(
            configuration: container.configuration.server.httpConfiguration, handler: instrumented)
        container.metrics.observeOpenConnections { server.openConnections }
        return server
    }

    /// Loads every repository's warm-up paths, with readiness "not ready" meanwhile, and logs the outcome.
    public static func warmUp(container: GatewayDependencyContainer) async {
        await container.readiness.duringWarmUp {
            await withTaskGroup(of: Void.self) { group in
                for route in container.routes where !route.settings.warmUp.isEmpty {
                    guard let repository = container.makeRepository(named: route.name) else { continue }
                    let keys = route.settings.warmUp.compactMap { route.key(forTarget: $0) }
                    group.addTask {
                        for result in await repository.warmUp(keys) {
                            let fields: [String: LogValue] = [
                                "repository": .string(route.name), "key": .string(result.key),
                                "ok": .bool(result.succeeded),
                            ]
                            container.logger.log(result.succeeded ? .info : .warning, "warm_up", fields)
                        }
                    }
                }
            }
        }
    }

    /// Stops what the container started besides the gateway's server (the embedded demo).
    public static func shutdown(container: GatewayDependencyContainer) async {
        await container.embeddedDemo?.server.shutdown(gracePeriod: .seconds(1))
    }
}
