import RDS

extension LogLevel {
    /// The environment variable that overrides the configured log level.
    public static let environmentVariable = "RDS_LOG_LEVEL"

    /// The level called `name` (`debug`, `info`, `warning` or `warn`, `error`; any case), or `nil`.
    public init?(name: String) {
        let lowered = name.lowercased()
        guard let level = LogLevel.allCases.first(where: { $0.name == lowered }) ?? (lowered == "warn" ? .warning : nil)
        else { return nil }
        self = level
    }

    /// The level to log at: `RDS_LOG_LEVEL` when set, else `configured`, else `info`.
    /// - Throws: ``LogLevelError`` naming the variable when it holds no level name.
    public static func resolve(configured: LogLevel?, environment: [String: String]) throws -> LogLevel {
        guard let name = environment[environmentVariable], !name.isEmpty else { return configured ?? .info }
        guard let level = LogLevel(name: name) else {
            throw LogLevelError(source: environmentVariable, value: name)
        }
        return level
    }
}
