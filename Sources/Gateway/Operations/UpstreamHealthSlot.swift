import RDS
import Synchronization

/// One upstream service's ``UpstreamHealth``, under its own lock: a service's calls record their
/// outcomes here without finding the service among the others (see ``Readiness/upstreamHealth(of:)``).
public final class UpstreamHealthSlot: Sendable {
    private let clock: any ClockProvider
    private let health: Mutex<UpstreamHealth>

    init(service: String, clock: any ClockProvider) {
        self.clock = clock
        health = Mutex(UpstreamHealth(service: service))
    }

    /// What the service's calls have shown so far.
    var current: UpstreamHealth { health.withLock { $0 } }

    /// Records one call's outcome, stamped now; `errorCode` is `nil` on success.
    public func record(errorCode: String?) {
        let now = clock.now
        health.withLock { $0.record(errorCode: errorCode, at: now) }
    }
}
