import Foundation

/// Wall-clock time, injected so that tests move time by hand.
///
/// Every TTL decision in RDS reads ``now`` from a clock provider; nothing calls `Date()` itself.
public protocol ClockProvider: Sendable {
    /// The current time.
    var now: Date { get }
    /// Suspends until `deadline` on this clock.
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    func sleep(until deadline: Date) async throws
}
