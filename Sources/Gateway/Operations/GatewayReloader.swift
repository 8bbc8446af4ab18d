import RDS

/// Re-reads the configuration and swaps it in without dropping a connection (`SIGHUP` and
/// `POST /admin/reload`): the new file is loaded and validated first, and on any error the
/// running configuration stays and the error is logged and thrown. On success the router is
/// replaced in one step; repositories whose settings (and service) did not change keep their
/// store, so their cache, subscribers and fetches in flight carry on. Changes to `server`,
/// `cache` and `logging` are not applied (the report names them): they need a restart.
public actor GatewayReloader {
    /// Reads and validates the configuration; returns it with the name of its source.
    public typealias Load = @Sendable () throws -> (GatewayConfiguration, String)

    /// The handler the server runs; it answers from the configuration in place.
    public nonisolated let handler: ReloadableHandler
    private let load: Load

    /// A reloader serving `container` now and reading later configurations with `load`.
    public init(container: GatewayDependencyContainer, load: @escaping Load) {
        self.load = load
        let handler = ReloadableHandler(container: container)
        self.handler = handler
        handler.enableReload { [weak self] in
            guard let self else { throw GatewayError(.reloadFailed, "The gateway is shutting down") }
            return try await self.reload()
        }
    }

    /// Loads, validates and swaps in the configuration (one reload at a time).
    /// - Returns: What changed.
    /// - Throws: ``ConfigurationError`` (or a start-up error of the new repositories); the running
    ///   configuration is then left in place.
    public func reload() async throws -> ReloadReport {
        let old = handler.container
        let logger = old.logger
        do {
            var (configuration, source) = try load()
            var restartRequired: [String] = []
            if configuration.server != old.configuration.server {
                restartRequired.append("server")
                configuration.server = old.configuration.server
            }
            if configuration.cache != old.configuration.cache {
                restartRequired.append("cache")
                configuration.cache = old.configuration.cache
            }
            if configuration.logging != old.configuration.logging {
                restartRequired.append("logging")
                configuration.logging = old.configuration.logging
            }
            let container = try await Bootstrap.makeContainer(
                configuration: configuration, clock: old.clock, logger: logger, reusing: old)
            handler.install(container)
            old.retireCredentials(replacedBy: container)
            old.retireRefreshers(replacedBy: container)
            let before = Set(old.configuration.repositoryNames)
            let after = configuration.repositoryNames
            let report = ReloadReport(
                source: source, added: after.filter { !before.contains($0) },
                removed: old.configuration.repositoryNames.filter { configuration.repositories[$0] == nil },
                changed: after.filter { before.contains($0) && !container.keptRepositories.contains($0) },
                kept: container.keptRepositories.sorted(), restartRequired: restartRequired)
            logger.log(.info, "config_reloaded", report.logFields)
            return report
        } catch {
            let chain = ErrorChain(error).links.map(\.message).joined(separator: ": ")
            logger.log(.error, "config_reload_failed", ["error": .string(chain)])
            throw error
        }
    }
}
