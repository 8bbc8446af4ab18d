/// A log level setting that names no level.
public struct LogLevelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the setting came from, e.g. `RDS_LOG_LEVEL`.
    public var source: String
    /// The value found.
    public var value: String

    /// Creates the error.
    public init(source: String, value: String) {
        self.source = source
        self.value = value
    }

    /// `RDS_LOG_LEVEL: "loud" is not a log level (expected debug, info, warning or error)`.
    public var description: String {
        "\(source): \"\(value)\" is not a log level (expected debug, info, warning or error)"
    }
}
