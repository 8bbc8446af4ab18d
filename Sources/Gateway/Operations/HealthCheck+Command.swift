import Foundation

extension HealthCheck {
    /// Runs `rds-gateway healthcheck [--config FILE] [--host H] [--port N]`: prints one line and
    /// returns the exit code, 0 when `/health` answered 200 with the gateway's own body, 1 otherwise.
    /// - Parameters:
    ///   - options: The parsed command line (its config path, host and port).
    ///   - environment: The process environment (`RDS_CONFIG`, `RDS_HOST`, `RDS_PORT`, `${…}`).
    public static func runCommand(options: CommandLineOptions, environment: [String: String]) -> Int32 {
        do {
            let (check, note) = try target(options: options, environment: environment)
            if let note { FileHandle.standardError.write(Data("healthcheck: \(note)\n".utf8)) }
            let url = "http://\(check.host.contains(":") ? "[\(check.host)]" : check.host):\(check.port)\(check.path)"
            let answer = try check.answer()
            guard answer.status == 200 else {
                FileHandle.standardError.write(Data("healthcheck: \(url) answered \(answer.status)\n".utf8))
                return 1
            }
            guard answer.isGateway else {
                FileHandle.standardError.write(
                    Data("healthcheck: \(url) answered 200, but not with the gateway's /health body\n".utf8))
                return 1
            }
            FileHandle.standardOutput.write(Data("healthcheck: \(url) answered 200\n".utf8))
            return 0
        } catch {
            FileHandle.standardError.write(Data("healthcheck: \(error)\n".utf8))
            return 1
        }
    }

    /// The check of the gateway the same options and environment would serve: the configuration's
    /// `server.host` and `server.port` after `RDS_HOST` / `RDS_PORT` and `--host` / `--port`. A
    /// wildcard address (`0.0.0.0`, `::`) is called on loopback. When the configuration cannot be
    /// read, the flags, then `RDS_HOST` / `RDS_PORT`, then `127.0.0.1:8080` are used, and the note says why.
    /// - Throws: ``HealthCheckError/invalidArguments(_:)`` for port 0 (chosen at start-up) or a bad `RDS_PORT`.
    static func target(options: CommandLineOptions, environment: [String: String]) throws(HealthCheckError)
        -> (HealthCheck, note: String?)
    {
        var host: String
        var port: Int
        var note: String?
        do {
            let (configuration, _) = try GatewayCommand.loadConfiguration(options, environment: environment)
            (host, port) = (configuration.server.host, configuration.server.port)
        } catch {
            note = "the configuration cannot be read (\(error.description)); using the flags and environment"
            host = options.host ?? environment["RDS_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
            let portText = environment["RDS_PORT"].flatMap { $0.isEmpty ? nil : $0 }
            guard let resolved = options.port ?? (portText.map { Int($0) } ?? defaultPort), (0...65_535).contains(resolved)
            else {
                throw .invalidArguments("RDS_PORT must be a number from 1 to 65535, not \(portText ?? "")")
            }
            port = resolved
        }
        guard port != 0 else {
            throw .invalidArguments("the port is 0 (any free port, chosen at start-up): give healthcheck --port N")
        }
        switch host {
        case "", "0.0.0.0", "localhost": host = "127.0.0.1"
        case "::", "[::]": host = "::1"
        default: break
        }
        return (HealthCheck(host: host, port: port), note)
    }
}
