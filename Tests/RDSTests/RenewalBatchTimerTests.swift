import Dispatch
import Synchronization
import Testing

@testable import RDS

/// The disk level's batch timer: armed again for every batch, it runs each batch's work once, on
/// its queue; arming it while armed adds no second run.
@Suite(.timeLimit(.minutes(1)))
struct RenewalBatchTimerTests {
    /// The names of the works run, in order.
    private final class Runs: Sendable {
        let names = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)

        func work(_ name: String) -> @Sendable () -> Void {
            { [self] in
                names.withLock { $0.append(name) }
                done.signal()
            }
        }

        /// Waits (at most 10 s) for one more work to have run.
        func waitForOne() -> Bool { done.wait(timeout: .now() + .seconds(10)) == .success }
    }

    @Test func arm_RunsTheWorkOnItsQueue_AndAgainForEveryBatch() {
        let queue = DispatchQueue(label: "timer-test")
        queue.setSpecific(key: Self.queueKey, value: "timer-test")
        let timer = RenewalBatchTimer(queue: queue)
        let runs = Runs()
        let onQueue = Mutex([Bool]())

        for name in ["first", "second", "third"] {
            let work = runs.work(name)
            timer.arm(after: .milliseconds(1)) {
                onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: Self.queueKey) == "timer-test") }
                work()
            }
            #expect(runs.waitForOne())
        }

        #expect(runs.names.withLock { $0 } == ["first", "second", "third"])
        #expect(onQueue.withLock { $0 } == [true, true, true])
    }

    @Test func arm_WhileArmed_KeepsTheFirstWork_AndRunsItOnce() {
        let queue = DispatchQueue(label: "timer-test")
        let timer = RenewalBatchTimer(queue: queue)
        let runs = Runs()
        let held = DispatchSemaphore(value: 0)
        queue.async { held.wait() }

        timer.arm(after: .milliseconds(1), runs.work("armed first"))
        timer.arm(after: .milliseconds(1), runs.work("armed meanwhile"))
        held.signal()
        #expect(runs.waitForOne())
        timer.arm(after: .milliseconds(1), runs.work("next batch"))
        #expect(runs.waitForOne())

        #expect(runs.names.withLock { $0 } == ["armed first", "next batch"])
    }

    private static let queueKey = DispatchSpecificKey<String>()
}
