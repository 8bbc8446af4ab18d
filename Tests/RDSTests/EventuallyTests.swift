import Foundation
import RDSTesting
import Synchronization
import Testing

/// The bounded wait the tests use for other tasks' progress.
@Suite struct EventuallyTests {
    @Test func conditionThatNeverHolds_GivesFalse_AfterTheLimit() async {
        let started = ContinuousClock.now
        #expect(await eventually(within: .milliseconds(30)) { false } == false)
        #expect(ContinuousClock.now - started >= .milliseconds(30))
    }

    @Test func conditionAnotherThreadMakesTrue_GivesTrue() async {
        let flag = Atomic<Bool>(false)
        Thread.detachNewThread { flag.store(true, ordering: .releasing) }
        #expect(await eventually { flag.load(ordering: .acquiring) })
    }
}
