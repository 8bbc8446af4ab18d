/// One repository's outbox as `/health/ready` reports it (never a reason to be unready).
public struct WriteQueueHealth: Sendable, Hashable, Encodable {
    /// The repository.
    public var repository: String
    /// Writes waiting for delivery.
    public var pending: Int
    /// Dead letters waiting for an operator.
    public var deadLetters: Int
    /// Seconds the oldest pending write has waited (0 when none).
    public var oldestPendingAgeSeconds: Int
}
