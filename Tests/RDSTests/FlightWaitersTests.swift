import Testing

@testable import RDS

/// The waiters of one fetch: the first in place, the others in a table; each removed by its id
/// once, every one handed out.
struct FlightWaitersTests {
    @Test func addAndRemove_KeepEveryWaiterUnderItsID_InPlaceOrInTheTable() {
        var waiters = FlightWaiters<String>()
        #expect(waiters.isEmpty)

        waiters.add("first", id: 1)
        waiters.add("second", id: 2)
        waiters.add("third", id: 3)
        #expect(waiters.count == 3)

        #expect(waiters.remove(id: 1) == "first")
        #expect(waiters.remove(id: 1) == nil)
        waiters.add("fourth", id: 4)
        #expect(waiters.remove(id: 3) == "third")
        #expect(waiters.remove(id: 9) == nil)

        var handedOut: [String] = []
        waiters.forEach { handedOut.append($0) }
        #expect(handedOut.sorted() == ["fourth", "second"])
        #expect(waiters.count == 2)
        #expect(waiters.remove(id: 2) == "second")
        #expect(waiters.remove(id: 4) == "fourth")
        #expect(waiters.isEmpty)
    }
}
