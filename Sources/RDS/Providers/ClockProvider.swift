import Foundation

/// Wall-clock time, injected so that tests move time by hand.
///
/// Every TTL decision in RDS reads ``now`` from a clock provider; nothing calls `Date()` itself.
/// A class: a clock held as `any ClockProvider` is then one reference, copied with a retain, where
/// a value's existential was copied through the runtime's witnesses at each read of ``now``.
public protocol ClockProvider: AnyObject, Sendable {
    /// The current time.
    var now: Date { get }
    /// Suspends until `deadline` on this clock.
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    func sleep(until deadline: Date) async throws
}
