import Foundation
import HTTP1
import RDS
import Sockets

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
    ///   - previous: The container being replaced by a reload: its demo upstream, transport,
    ///     metrics, readiness and unchanged repositories carry on.
    /// - Throws: ``ConfigurationError``, or `SocketError` when the demo cannot bind a loopback port.
    public static func makeContainer(
        configuration: GatewayConfiguration, clock: any ClockProvider = SystemClock(), logger: any Logger,
        transport: (any Transport)? = nil, reusing previous: GatewayDependencyContainer? = nil
    ) async throws -> GatewayDependencyContainer {
        let usesDemo = configuration.services.values.contains { $0.baseURL == ServiceSettings.embeddedDemo }
        let startsDemo = usesDemo && previous?.embeddedDemo == nil
        let demo = startsDemo ? try await EmbeddedDemo.start() : previous?.embeddedDemo
        var baseURLs: [String: URL] = [:]
        for (name, service) in configuration.services {
            if service.baseURL == ServiceSettings.embeddedDemo {
                baseURLs[name] = demo?.baseURL
            } else if let url = URL(string: service.baseURL) {
                baseURLs[name] = url
            }
        }
        let budget = previous?.inFlightBodies ?? HTTPBodyBudget(limit: configuration.cache.inFlightBodyBytes)
        do {
            return try GatewayDependencyContainer(
                configuration: configuration, baseURLs: baseURLs, embeddedDemo: demo, clock: clock, logger: logger,
                transport: transport ?? previous?.transport ?? SchemeTransport.standard(bodyBudget: budget),
                inFlightBodies: budget, reusing: previous)
        } catch {
            if startsDemo { await demo?.server.shutdown(gracePeriod: Duration.zero) }
            throw error
        }
    }

    /// The gateway's HTTP server (not started): the router behind the operations endpoints
    /// (`/metrics`, `/health/ready`) and the per-request metrics and logs. Without `reloader`
    /// the configuration is fixed (and `POST /admin/reload` answers that it cannot reload).
    /// `passThroughOnLoop: false` answers every pass-through in a task (see ``LoopPassThrough``),
    /// as the gateway did before that path.
    public static func makeServer(container: GatewayDependencyContainer, passThroughOnLoop: Bool = true) -> HTTPServer {
        makeServer(
            handler: ReloadableHandler(container: container), container: container, passThroughOnLoop: passThroughOnLoop)
    }

    /// The gateway's HTTP server (not started) over the reloader's current configuration; a
    /// reload swaps its router without touching the server's connections.
    public static func makeServer(reloader: GatewayReloader) -> HTTPServer {
        makeServer(handler: reloader.handler, container: reloader.handler.container, passThroughOnLoop: true)
    }

    private static func makeServer(
        handler: ReloadableHandler, container: GatewayDependencyContainer, passThroughOnLoop: Bool
    ) -> HTTPServer {
        let instrumented = InstrumentedHandler(
            wrapping: handler, metrics: container.metrics, logger: container.logger, classify: handler.classify,
            recentProblems: container.recentProblems, respondImmediately: handler.classifiedImmediateAnswer,
            passesThroughOnLoop: passThroughOnLoop)
        let server = HTTPServer(
            configuration: container.configuration.server.httpConfiguration,
            handler: InstrumentedGatewayHandler(instrumented: instrumented))
        container.metrics.observeOpenConnections { server.openConnections }
        container.metrics.registry.callback(
            "rds_gateway_log_write_failures_total",
            help: "Log lines dropped because standard error could not take them.",
            type: .counter, labelNames: []
        ).addReader { [MetricReading(labelValues: [], value: Double(JSONLinesLogger.failedWrites))] }
        container.metrics.registry.callback(
            "rds_gateway_connections_when_full_total",
            help: "New connections that found every slot taken, by outcome: made_room (an idle connection "
                + "was closed for it), reserve (served health checks only), refused (closed at once).",
            type: .counter, labelNames: ["outcome"]
        ).addReader {
            let counts = server.slotCounts
            return [
                MetricReading(labelValues: ["made_room"], value: Double(counts.madeRoom)),
                MetricReading(labelValues: ["reserve"], value: Double(counts.servedFromReserve)),
                MetricReading(labelValues: ["refused"], value: Double(counts.refused)),
            ]
        }
        return server
    }

    /// Loads every repository's warm-up paths, with readiness "not ready" meanwhile, and logs the
    /// outcome; the keys that failed are listed, with their error codes, in `/health/ready`.
    /// With `server.requireWarmUp`, a round that could not load every key is tried again after
    /// 1 s, 2 s, 4 s … (at most 60 s apart) on the container's clock until one loads them all or
    /// the task is cancelled.
    public static func warmUp(container: GatewayDependencyContainer) async {
        var delay: TimeInterval = 1
        while !(await warmUpRound(container: container)), container.configuration.server.requireWarmUp {
            do {
                try await container.clock.sleep(until: container.clock.now.addingTimeInterval(delay))
            } catch {
                return
            }
            delay = min(delay * 2, 60)
        }
    }

    /// One warm-up round over every repository; `true` when every key was loaded.
    private static func warmUpRound(container: GatewayDependencyContainer) async -> Bool {
        await container.readiness.duringWarmUp {
            await withTaskGroup(of: Bool.self) { group in
                for route in container.routes where !route.settings.warmUp.isEmpty {
                    guard let repository = container.makeRepository(named: route.name) else { continue }
                    let keys = route.settings.warmUp.compactMap { route.key(forTarget: $0) }
                    group.addTask {
                        var loadedAll = true
                        for result in await repository.warmUp(keys) {
                            var fields: [String: LogValue] = [
                                "repository": .string(route.name), "key": .string(result.key),
                                "ok": .bool(result.succeeded),
                            ]
                            if case .failure(let error) = result.outcome {
                                loadedAll = false
                                let code = ProblemCause(error).link.code
                                fields["error"] = .string(code)
                                container.readiness.warmUpFailed(
                                    WarmUpFailure(repository: route.name, key: result.key, error: code))
                            }
                            container.logger.log(result.succeeded ? .info : .warning, "warm_up", fields)
                        }
                        return loadedAll
                    }
                }
                return await group.allSatisfy { $0 }
            }
        }
    }

    /// Stops what the container started besides the gateway's server (token refreshers, the
    /// shared cache's stream reader, the embedded demo), then waits for the renewals the disk
    /// levels write behind.
    public static func shutdown(container: GatewayDependencyContainer) async {
        container.retireCredentials()
        container.sharedCache?.stop()
        container.stopOutboxes()
        container.retireRefreshers()
        await container.embeddedDemo?.server.shutdown(gracePeriod: .seconds(1))
        for disk in container.diskLevels.values { await disk.finishWrites() }
    }
}
