import Testing

@testable import Sockets

/// The monotonic instants connection deadlines are kept in: durations converted exactly, and
/// bounded rather than wrapped when they do not fit.
struct LoopInstantTests {
    @Test(arguments: [
        (Duration.seconds(2), Int64(2_000_000_000)), (.milliseconds(1_500), 1_500_000_000), (.nanoseconds(7), 7),
        (.seconds(-3), -3_000_000_000), (.zero, 0), (.seconds(Int64.max), .max), (.seconds(Int64.min), .min),
    ])
    func nanoseconds_OfDuration_AreExactOrBounded(duration: Duration, expected: Int64) {
        #expect(LoopInstant.nanoseconds(of: duration) == expected)
    }

    @Test func sum_AndDifference_AreInNanoseconds() {
        let start = LoopInstant(nanoseconds: 1_000)
        #expect(start + .microseconds(3) == LoopInstant(nanoseconds: 4_000))
        #expect((start + .seconds(1)).nanoseconds(since: start) == 1_000_000_000)
        #expect(start < start.advanced(byNanoseconds: 1))
    }

    @Test func sum_PastTheEndOfTime_StaysThere() {
        let late = LoopInstant(nanoseconds: .max - 5)
        #expect(late + .seconds(Int64.max) == LoopInstant(nanoseconds: .max))
        #expect(late.advanced(byNanoseconds: 10) > late)
        #expect(LoopInstant(nanoseconds: .min + 5).advanced(byNanoseconds: -10) == LoopInstant(nanoseconds: .min))
    }

    @Test func now_NeverGoesBack() {
        var last = LoopInstant.now
        for _ in 0..<1_000 {
            let next = LoopInstant.now
            #expect(next >= last)
            last = next
        }
    }
}
