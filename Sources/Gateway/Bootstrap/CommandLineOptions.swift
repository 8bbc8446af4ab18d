/// The `rds-gateway` command line: `[--config FILE] [--host HOST] [--port PORT]`,
/// `--check-config FILE`, `--help`, `--version` (or `version`), or
/// `healthcheck [--config FILE] [--host HOST] [--port PORT]`.
public struct CommandLineOptions: Sendable, Equatable {
    /// What the process is asked to do.
    public enum Action: Sendable, Equatable {
        /// Serve the configuration.
        case serve
        /// Validate this file and exit 0 or 1.
        case checkConfig(String)
        /// `GET /health` on the address the same options would serve on, and exit 0 or 1.
        case healthcheck
        /// Print the usage.
        case help
        /// Print the name and version.
        case version
    }

    /// What to do.
    public var action: Action = .serve
    /// `--config`.
    public var configPath: String?
    /// `--host`.
    public var host: String?
    /// `--port`.
    public var port: Int?

    /// The usage text.
    public static let usage = """
        usage: rds-gateway [--config FILE] [--host HOST] [--port PORT]
               rds-gateway --check-config FILE
               rds-gateway healthcheck [--config FILE] [--host HOST] [--port PORT]
               rds-gateway --version | version
        The configuration is --config, else $RDS_CONFIG, else Config/gateway.json in the working
        directory, else the built-in default (the embedded demo). RDS_HOST and RDS_PORT override
        the file; --host and --port override both. healthcheck calls the address the same
        options and environment would serve on.
        """

    /// Parses the arguments after the program name.
    /// - Throws: ``CommandLineError`` with a message for an unknown flag or a missing or bad value.
    public init(arguments: [String]) throws(CommandLineError) {
        var rest = arguments[...]
        switch rest.first {
        case "version":
            rest.removeFirst()
            guard rest.isEmpty else { throw CommandLineError("version takes no arguments") }
            action = .version
            return
        case "healthcheck":
            rest.removeFirst()
            action = .healthcheck
        default:
            break
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--help", "-h":
                action = .help
            case "--version" where action != .healthcheck:
                action = .version
            case "--check-config" where action == .healthcheck:
                throw CommandLineError("healthcheck takes --config, --host and --port, not --check-config")
            case "--config", "--check-config", "--host", "--port":
                guard let value = rest.popFirst(), !value.hasPrefix("--") else {
                    throw CommandLineError("\(flag) needs a value")
                }
                try apply(flag, value)
            default:
                throw CommandLineError("unknown argument \"\(flag)\"")
            }
        }
    }

    private mutating func apply(_ flag: String, _ value: String) throws(CommandLineError) {
        switch flag {
        case "--config": configPath = value
        case "--check-config": action = .checkConfig(value)
        case "--host": host = value
        default:
            guard let number = Int(value), (0...65_535).contains(number) else {
                throw CommandLineError("--port needs a number from 0 to 65535, not \"\(value)\"")
            }
            port = number
        }
    }
}
