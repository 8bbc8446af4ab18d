import Synchronization

/// What `/health/ready` reports: not ready while the warm-up runs or when a repository's disk
/// cache could not be opened.
public final class GatewayReadiness: Sendable {
    private let warmingUp = Mutex(false)

    /// Creates a readiness tracker (ready, not warming up).
    public init() {}

    /// `true` while the start-up warm-up runs.
    public var isWarmingUp: Bool {
        get { warmingUp.withLock { $0 } }
        set { warmingUp.withLock { $0 = newValue } }
    }
}
