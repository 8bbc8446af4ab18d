/// The `rds-gateway` command line: `[--config FILE] [--host HOST] [--port PORT]`,
/// `--check-config FILE`, `--help`, or `healthcheck [--port N]`.
public struct CommandLineOptions: Sendable, Equatable {
    /// What the process is asked to do.
    public enum Action: Sendable, Equatable {
        /// Serve the configuration.
        case serve
        /// Validate this file and exit 0 or 1.
        case checkConfig(String)
        /// `GET /health` on the local port and exit 0 or 1, with these arguments.
        case healthcheck([String])
        /// Print the usage.
        case help
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
               rds-gateway healthcheck [--port N]
        The configuration is --config, else $RDS_CONFIG, else Config/gateway.json in the working
        directory, else the built-in default (the embedded demo). RDS_HOST and RDS_PORT override
        the file; --host and --port override both.
        """

    /// Parses the arguments after the program name.
    /// - Throws: ``CommandLineError`` with a message for an unknown flag or a missing or bad value.
    public init(arguments: [String]) throws(CommandLineError) {
        if arguments.first == "healthcheck" {
            action = .healthcheck(Array(arguments.dropFirst()))
            return
        }
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            switch flag {
            case "--help", "-h":
                action = .help
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
