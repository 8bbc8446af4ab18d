import Foundation
import RDS
import RDSTesting
import Synchronization
import Testing

struct RefreshSchedulerTests {
    @Test func actions_RunWhenTheClockPassesTheirDeadlines_InOrder() async {
        let clock = ManualClock()
        let scheduler = RefreshScheduler(clock: clock)
        let fired = Mutex<[String]>([])
        let latch = CountLatch()
        let start = clock.now
        scheduler.schedule(at: start + 20) {
            fired.withLock { $0.append("b") }
            latch.increment()
        }
        scheduler.schedule(at: start + 10) {
            fired.withLock { $0.append("a") }
            latch.increment()
        }
        #expect(scheduler.armedDeadline == start + 10)
        clock.advance(by: 10)
        await latch.wait(until: 1)
        #expect(fired.withLock { $0 } == ["a"])
        clock.advance(by: 10)
        await latch.wait(until: 2)
        #expect(fired.withLock { $0 } == ["a", "b"])
        #expect(scheduler.count == 0)
        scheduler.stop()
    }

    @Test func manyTimers_ShareOneSleepingTask() async {
        let clock = ManualClock()
        let scheduler = RefreshScheduler(clock: clock)
        for offset in 0..<10_000 { scheduler.schedule(at: clock.now + 60 + Double(offset % 100)) {} }
        #expect(scheduler.count == 10_000)
        #expect(scheduler.armedDeadline == clock.now + 60)
        #expect(await eventually { clock.sleeperCount > 0 })
        #expect(clock.sleeperCount == 1)
        scheduler.stop()
    }

    @Test func cancel_KeepsTheActionFromRunning() async {
        let clock = ManualClock()
        let scheduler = RefreshScheduler(clock: clock)
        let latch = CountLatch()
        let cancelled = scheduler.schedule(at: clock.now + 5) { Issue.record("a cancelled timer ran") }
        scheduler.schedule(at: clock.now + 6) { latch.increment() }
        scheduler.cancel(cancelled)
        clock.advance(by: 6)
        await latch.wait(until: 1)
        #expect(scheduler.count == 0)
        scheduler.stop()
    }
}
