import Foundation

/// The real wall clock.
public final class SystemClock: ClockProvider {
    /// Creates the system clock.
    public init() {}

    /// The current time.
    public var now: Date { Date() }

    /// Sleeps with `Task.sleep` until `deadline`.
    public func sleep(until deadline: Date) async throws {
        let interval = deadline.timeIntervalSinceNow
        if interval > 0 {
            try await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
        } else {
            try Task.checkCancellation()
        }
    }
}
