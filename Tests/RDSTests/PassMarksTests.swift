import Foundation
import Testing

@testable import RDS

/// The hit-for-pass marks: they expire, they are cleared, and they stay within their capacity.
struct PassMarksTests {
    private let start = Date(timeIntervalSince1970: 1_000_000)

    @Test func mark_LastsItsWindow_ThenExpires() {
        let marks = PassMarks<String>(window: 10, capacity: 4)
        marks.mark("a", at: start)
        #expect(marks.isMarked("a", at: start.addingTimeInterval(9.9)))
        #expect(!marks.isMarked("a", at: start.addingTimeInterval(10)))
        #expect(!marks.isMarked("b", at: start))
    }

    @Test func clear_EndsTheMark() {
        let marks = PassMarks<String>(window: 10, capacity: 4)
        marks.mark("a", at: start)
        marks.clear("a")
        #expect(!marks.isMarked("a", at: start))
    }

    @Test func whenFull_ExpiredMarksMakeRoom_AndLiveOnesAreNeverDisplaced() {
        let marks = PassMarks<String>(window: 10, capacity: 2)
        marks.mark("a", at: start)
        marks.mark("b", at: start.addingTimeInterval(5))
        marks.mark("c", at: start.addingTimeInterval(6))
        #expect(!marks.isMarked("c", at: start.addingTimeInterval(6)), "full of live marks: not taken")
        marks.mark("c", at: start.addingTimeInterval(11))
        #expect(marks.isMarked("c", at: start.addingTimeInterval(11)), "a's expiry made room")
        #expect(marks.isMarked("b", at: start.addingTimeInterval(11)))
    }
}
