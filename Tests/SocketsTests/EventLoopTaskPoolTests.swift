import Synchronization
import Testing

@testable import Sockets

/// The tasks an event loop keeps between jobs: reused, capped, and cancelled one job at a time.
@Suite(.timeLimit(.minutes(1)))
struct EventLoopTaskPoolTests {
    /// A started loop, a pool used on its thread, and the reports of the jobs.
    private final class Bench: Sendable {
        let loop: EventLoop
        let pool: EventLoopTaskPool
        let reports: AsyncStream<String>
        let report: AsyncStream<String>.Continuation

        init(capacity: Int) throws {
            loop = try EventLoop(checkInterval: .seconds(1))
            try loop.start()
            pool = EventLoopTaskPool(capacity: capacity)
            (reports, report) = AsyncStream.makeStream()
        }

        /// Runs `body` on the loop's thread and returns its result.
        func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
            await withCheckedContinuation { continuation in loop.execute { continuation.resume(returning: body()) } }
        }

        /// Starts a job that reports `name` with whether it runs cancelled, once `gate` opens.
        func start(_ name: String, after gate: AsyncStream<Void>? = nil) async -> EventLoopTask {
            await onLoop { [self] in
                pool.start(
                    { [self] in
                        if let gate { for await _ in gate { break } }
                        report.yield("\(name) \(Task.isCancelled ? "cancelled" : "ran")")
                    }, on: loop)
            }
        }

        func next(_ count: Int) async -> [String] {
            var seen: [String] = []
            for await line in reports {
                seen.append(line)
                if seen.count == count { break }
            }
            return seen.sorted()
        }
    }

    /// A value a test task binds, to see whether a job inherits it.
    @TaskLocal static var marker: String?

    /// A kept task serves unrelated jobs: it inherits no task-local value from the task that
    /// started its first one (a request's context would otherwise outlive the request in it).
    @Test func aJob_InheritsNoTaskLocalValue_FromTheTaskThatStartsIt() async throws {
        let bench = try Bench(capacity: 2)
        defer { bench.loop.stop() }
        _ = await bench.onLoop { [bench] in
            bench.pool.start(
                { [bench] in
                    Self.$marker.withValue("starter") {
                        _ = bench.pool.start({ [bench] in bench.report.yield("inner \(Self.marker ?? "none")") }, on: bench.loop)
                    }
                }, on: bench.loop)
        }
        #expect(await bench.next(1) == ["inner none"])
    }

    @Test func finishedTasks_WaitForTheNextJob_UpToTheCapacity() async throws {
        let bench = try Bench(capacity: 2)
        defer { bench.loop.stop() }
        let (gate, open) = AsyncStream<Void>.makeStream()
        for name in ["a", "b", "c"] { _ = await bench.start(name, after: gate) }
        #expect(await bench.onLoop { bench.pool.waitingCount } == 0)
        open.finish()
        #expect(await bench.next(3) == ["a ran", "b ran", "c ran"])
        #expect(await bench.onLoop { bench.pool.waitingCount } == 2)
        _ = await bench.start("d")
        #expect(await bench.next(1) == ["d ran"])
        #expect(await bench.onLoop { bench.pool.waitingCount } == 2)
    }

    @Test func cancel_CancelsItsJobOnly_AndACancelledTaskIsNotReused() async throws {
        let bench = try Bench(capacity: 4)
        defer { bench.loop.stop() }
        let (gate, open) = AsyncStream<Void>.makeStream()
        let first = await bench.start("first", after: gate)
        await bench.onLoop { first.cancel() }
        open.finish()
        #expect(await bench.next(1) == ["first cancelled"])
        #expect(await bench.onLoop { bench.pool.waitingCount } == 0)
        let second = await bench.start("second")
        #expect(await bench.next(1) == ["second ran"])
        #expect(await bench.onLoop { bench.pool.waitingCount } == 1)
        // The finished job's handle must not reach the job its task runs next.
        let (nextGate, openNext) = AsyncStream<Void>.makeStream()
        _ = await bench.start("third", after: nextGate)
        #expect(await bench.onLoop { bench.pool.waitingCount } == 0)
        await bench.onLoop { second.cancel() }
        openNext.finish()
        #expect(await bench.next(1) == ["third ran"])
    }

    @Test func close_EndsTheWaitingTasks_AndTheTasksFinishingLater() async throws {
        let bench = try Bench(capacity: 4)
        defer { bench.loop.stop() }
        let (firstGate, openFirst) = AsyncStream<Void>.makeStream()
        for name in ["a", "b"] { _ = await bench.start(name, after: firstGate) }
        openFirst.finish()
        #expect(await bench.next(2) == ["a ran", "b ran"])
        let (gate, open) = AsyncStream<Void>.makeStream()
        _ = await bench.start("late", after: gate)
        #expect(await bench.onLoop { bench.pool.waitingCount } == 1)
        await bench.onLoop { bench.pool.close() }
        #expect(await bench.onLoop { bench.pool.waitingCount } == 0)
        open.finish()
        #expect(await bench.next(1) == ["late ran"])
        #expect(await bench.onLoop { bench.pool.waitingCount } == 0)
    }
}
