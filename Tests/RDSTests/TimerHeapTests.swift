import Foundation
import RDS
import Testing

struct TimerHeapTests {
    private let start = Date(timeIntervalSince1970: 1_000)

    @Test func popDue_ReturnsDueTimersEarliestFirst_AndKeepsTheRest() {
        var heap = TimerHeap()
        let late = heap.insert(start + 30)
        let early = heap.insert(start + 10)
        let middle = heap.insert(start + 20)
        #expect(heap.earliestDeadline() == start + 10)
        #expect(heap.popDue(at: start + 20) == [early, middle])
        #expect(heap.count == 1)
        #expect(heap.earliestDeadline() == start + 30)
        #expect(heap.popDue(at: start + 29).isEmpty)
        #expect(heap.popDue(at: start + 30) == [late])
        #expect(heap.earliestDeadline() == nil)
    }

    @Test func cancel_SkipsTheTimer_AndMovesTheEarliestDeadline() {
        var heap = TimerHeap()
        let first = heap.insert(start + 1)
        let second = heap.insert(start + 2)
        heap.cancel(first)
        #expect(heap.count == 1)
        #expect(heap.earliestDeadline() == start + 2)
        #expect(heap.popDue(at: start + 5) == [second])
    }

    @Test func manyTimers_ComeOutInDeadlineOrder_AfterCancellingHalf() {
        var heap = TimerHeap()
        var ids: [(UInt64, Int)] = []
        for offset in (0..<1_000).map({ ($0 * 7_919) % 1_000 }) {
            ids.append((heap.insert(start + Double(offset)), offset))
        }
        for (id, offset) in ids where offset % 2 == 1 { heap.cancel(id) }
        #expect(heap.count == 500)
        let due = heap.popDue(at: start + 10_000)
        let byID = Dictionary(uniqueKeysWithValues: ids)
        #expect(due.map { byID[$0]! } == Array(stride(from: 0, to: 1_000, by: 2)))
    }
}
