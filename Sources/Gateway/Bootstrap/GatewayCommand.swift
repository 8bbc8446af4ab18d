import Foundation
import HTTP1
import RDS

/// What `rds-gateway` does: parse the flags, load and check the configuration, start the
/// gateway, log where it listens, warm up, and shut down gracefully on SIGINT or SIGTERM.
public enum GatewayCommand {
    /// The configuration file looked for in the working directory.
    public static let defaultConfigPath = "Config/gateway.json"

    /// Runs the command and returns the exit status.
    public static func main(arguments: [String], environment: [String: String]) async -> Int32 {
        let options: CommandLineOptions
        do {
            options = try CommandLineOptions(arguments: arguments)
        } catch {
            printError("rds-gateway: \(error)\n\(CommandLineOptions.usage)")
            return 2
        }
        switch options.action {
        case .help:
            FileHandle.standardOutput.write(Data((CommandLineOptions.usage + "\n").utf8))
            return 0
        case .version:
            FileHandle.standardOutput.write(Data("\(GatewayVersion.name) \(GatewayVersion.current)\n".utf8))
            return 0
        case .healthcheck:
            return HealthCheck.runCommand(options: options, environment: environment)
        case .checkConfig(let path):
            return checkConfig(path, environment: environment)
        case .serve:
            return await serve(options, environment: environment)
        }
    }

    /// Validates `path`: prints what it holds and returns 0, or prints the error and returns 1.
    static func checkConfig(_ path: String, environment: [String: String]) -> Int32 {
        do {
            let configuration = try ConfigurationLoader(environment: environment).load(file: path)
            let names = configuration.repositoryNames.joined(separator: ", ")
            FileHandle.standardOutput.write(
                Data("\(path): OK (\(configuration.repositories.count) repositories: \(names))\n".utf8))
            return 0
        } catch {
            printError(error.description)
            return 1
        }
    }

    /// Loads the configuration the options and environment name, with `--host` / `--port` applied.
    /// - Returns: The configuration and the name of its source.
    static func loadConfiguration(_ options: CommandLineOptions, environment: [String: String])
        throws(ConfigurationError) -> (GatewayConfiguration, String)
    {
        let loader = ConfigurationLoader(environment: environment)
        let explicit = options.configPath ?? environment["RDS_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        var configuration: GatewayConfiguration
        let source: String
        if let path = explicit ?? (FileManager.default.fileExists(atPath: defaultConfigPath) ? defaultConfigPath : nil)
        {
            (configuration, source) = (try loader.load(file: path), path)
        } else {
            let data = Data(DefaultConfiguration.json.utf8)
            (configuration, source) = (
                try loader.load(data: data, file: DefaultConfiguration.name), DefaultConfiguration.name
            )
        }
        if let host = options.host { configuration.server.host = host }
        if let port = options.port { configuration.server.port = port }
        return (configuration, source)
    }

    private static func serve(_ options: CommandLineOptions, environment: [String: String]) async -> Int32 {
        OperatorSignals.ignoreAtStartUp()
        let openFiles = OpenFileLimit.raiseToHard()
        let configuration: GatewayConfiguration
        let source: String
        do {
            (configuration, source) = try loadConfiguration(options, environment: environment)
        } catch {
            printError("rds-gateway: \(error.description)")
            return 1
        }
        let level: LogLevel
        do {
            level = try LogLevel.resolve(configured: configuration.logging.level, environment: environment)
        } catch {
            printError("rds-gateway: \(error)")
            return 1
        }
        let logger = JSONLinesLogger(minimumLevel: level)
        // Lines are buffered: every way out of here writes them first.
        defer { logger.flush() }
        AllocatorTuning.returnLargeBlocksToTheSystem()
        // Installed first, so a signal during start-up (demo, datastores, bind) is not lost.
        let signals = ShutdownSignals { number in
            logger.log(.warning, "shutdown_forced", ["signal": .int(Int(number))])
            logger.flush()
        }
        OperatorSignals.ignoreUserSignals(logger: logger)
        logger.log(
            .info, "open_files_limit",
            [
                "before": .int(openFiles.before.soft), "soft": .int(openFiles.after.soft),
                "hard": .int(openFiles.after.hard),
                "max_connections": .int(configuration.server.limits.maxConnections),
            ])
        let container: GatewayDependencyContainer
        do {
            container = try await Bootstrap.makeContainer(configuration: configuration, logger: logger)
        } catch {
            printError("rds-gateway: cannot start: \(ErrorChain(error).links.map(\.message).joined(separator: ": "))")
            return 1
        }
        let reloader = GatewayReloader(container: container) {
            try loadConfiguration(options, environment: environment)
        }
        let server = Bootstrap.makeServer(reloader: reloader)
        let address = "\(configuration.server.host):\(configuration.server.port)"
        do {
            try await server.start()
        } catch {
            printError("rds-gateway: cannot listen on \(address): \(error)")
            await Bootstrap.shutdown(container: container)
            return 1
        }
        logStart(container, server: server, source: source)
        OperatorSignals.reloadOnHangUp(reloader, logger: logger)
        let warmUp = Task { await Bootstrap.warmUp(container: container) }
        let signal = await signals.first()
        logger.log(.info, "shutdown_started", ["signal": .int(Int(signal))])
        warmUp.cancel()
        let grace = Duration.milliseconds(Int64(configuration.server.timeouts.shutdownGrace * 1000))
        await server.shutdown(gracePeriod: grace)
        await Bootstrap.shutdown(container: reloader.handler.container)
        logger.log(.info, "stopped", [:])
        return 0
    }

    private static func logStart(_ container: GatewayDependencyContainer, server: HTTPServer, source: String) {
        let host = container.configuration.server.host
        let shownHost = host.contains(":") ? "[\(host)]" : host
        var fields: [String: LogValue] = [
            "address": .string("http://\(shownHost):\(server.port)"), "config": .string(source),
            "repositories": .string(container.routes.map(\.name).joined(separator: ",")),
        ]
        if let demo = container.embeddedDemo { fields["demo_upstream"] = .string(demo.baseURL.absoluteString) }
        if let disk = container.configuration.cache.disk { fields["disk_cache"] = .string(disk.path) }
        container.logger.log(.info, "started", fields)
        for route in container.routes {
            let settings = route.settings
            container.logger.log(
                .info, "repository",
                [
                    "name": .string(route.name), "route": .string(settings.route), "service": .string(settings.service),
                    "upstream_path": .string(settings.upstreamPath), "policy": .string(settings.policy.rawValue),
                    "methods": .string(settings.methods.joined(separator: ",")),
                ])
        }
    }

    /// Writes `message` to standard error after the log lines still buffered.
    private static func printError(_ message: String) {
        BufferedLineWriter.standardError.flush()
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
