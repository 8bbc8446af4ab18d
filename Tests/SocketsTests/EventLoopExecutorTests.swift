import Glibc
import Synchronization
import Testing

@testable import Sockets

/// An event loop as a task executor, its thread-local `current`, and its timers.
@Suite(.timeLimit(.minutes(1)))
struct EventLoopExecutorTests {
    private static func startedLoop() throws -> EventLoop {
        let loop = try EventLoop(checkInterval: .seconds(1))
        try loop.start()
        return loop
    }

    @Test func taskPreferringTheLoop_RunsOnItsThread_BeforeAndAfterASuspension() async throws {
        let loop = try Self.startedLoop()
        defer { loop.stop() }
        let (before, after, current) = await Task(executorPreference: loop) {
            let before = loop.isInLoopThread
            try? await Task.sleep(for: .milliseconds(5))
            return (before, loop.isInLoopThread, EventLoop.current === loop)
        }.value
        #expect(before && after && current)
        #expect(!loop.isInLoopThread && EventLoop.current == nil)
    }

    @Test func jobsArrivingAfterTheLoopStopped_StillRun() async throws {
        let loop = try Self.startedLoop()
        loop.stop()
        while await Task(executorPreference: loop, operation: { loop.isInLoopThread }).value {}
        let value = await Task(executorPreference: loop) { () async -> Int in
            try? await Task.sleep(for: .milliseconds(1))
            return 42
        }.value
        #expect(value == 42)
    }

    @Test func timers_RunOnTheLoop_InTheOrderOfTheirDueTimes() async throws {
        let loop = try Self.startedLoop()
        defer { loop.stop() }
        let fired = Mutex<[Int]>([])
        let done = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            loop.execute {
                let now = loop.instant
                for (index, delay) in [30, 10, 20].enumerated() {
                    loop.schedule(at: now + .milliseconds(delay)) {
                        fired.withLock { $0.append(index) }
                        if fired.withLock({ $0.count }) == 3 { continuation.resume(returning: loop.isInLoopThread) }
                    }
                }
            }
        }
        #expect(done)
        #expect(fired.withLock { $0 } == [1, 2, 0])
    }
}
