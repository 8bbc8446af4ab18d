import Glibc

/// A point in time on the monotonic clock, in nanoseconds: what connection deadlines and request
/// durations are kept in. A plain integer underneath, where every copy, comparison and sum of a
/// `ContinuousClock.Instant` (a type of another module, resilient) goes through the runtime's
/// value witnesses: several of those per request cost about a thousand instructions.
public struct LoopInstant: Comparable, Hashable, Sendable {
    /// Nanoseconds since an unspecified start (the system's boot).
    public let nanoseconds: Int64

    /// The instant `nanoseconds` after the clock's start.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The clock's reading now (`CLOCK_MONOTONIC`, no system call).
    public static var now: LoopInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return LoopInstant(nanoseconds: Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec))
    }

    /// The instant `nanoseconds` later, bounded by `Int64` (a timeout of centuries is a deadline
    /// at the end of time, never one in the past).
    public func advanced(byNanoseconds nanoseconds: Int64) -> LoopInstant {
        let (sum, overflow) = self.nanoseconds.addingReportingOverflow(nanoseconds)
        return LoopInstant(nanoseconds: overflow ? (nanoseconds > 0 ? .max : .min) : sum)
    }

    /// The instant `duration` later.
    public static func + (instant: LoopInstant, duration: Duration) -> LoopInstant {
        instant.advanced(byNanoseconds: nanoseconds(of: duration))
    }

    /// The nanoseconds from `earlier` to this instant.
    public func nanoseconds(since earlier: LoopInstant) -> Int64 { nanoseconds &- earlier.nanoseconds }

    /// `duration` in whole nanoseconds, bounded by `Int64` (negative durations stay negative).
    public static func nanoseconds(of duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, carry) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return carry ? (seconds < 0 ? .min : .max) : sum
    }

    /// Orders instants by time.
    public static func < (lhs: LoopInstant, rhs: LoopInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}
