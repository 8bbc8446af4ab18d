/// Why `rds-gateway healthcheck` could not get an answer.
public enum HealthCheckError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The arguments could not be read.
    case invalidArguments(String)
    /// No connection: the reason from the system (e.g. `Connection refused`).
    case connectFailed(String)
    /// No complete status line within the timeout.
    case timedOut
    /// The answer did not start with an HTTP status line.
    case malformedResponse

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .invalidArguments(let message): message
        case .connectFailed(let reason): "cannot connect: \(reason)"
        case .timedOut: "no answer in time"
        case .malformedResponse: "the answer is not HTTP"
        }
    }
}
