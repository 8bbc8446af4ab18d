/// How important a log event is.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, Codable {
    /// Detail for debugging.
    case debug
    /// Normal operation.
    case info
    /// Something unexpected that the process handled.
    case warning
    /// A failure.
    case error

    /// The level's name as written in logs: `debug`, `info`, `warning`, `error`.
    public var name: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }

    /// Orders levels by importance.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
