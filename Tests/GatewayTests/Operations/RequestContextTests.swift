import RDS
import Sockets
import Testing

@testable import Gateway

/// The tasks a request's repositories start: kept by the request's event loop, with the request's
/// context bound, and cancelled from any thread.
@Suite(.timeLimit(.minutes(1)))
struct RequestContextTests {
    @Test func startTask_RunsTheJobOnTheLoop_WithTheContextBound_AndCancelsItFromElsewhere() async throws {
        let loop = try EventLoop(checkInterval: .seconds(1))
        try loop.start()
        defer { loop.stop() }
        let (reports, report) = AsyncStream<[Bool]>.makeStream()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let placed: (any PlacedTask)? = await withCheckedContinuation { continuation in
            loop.execute {
                let context = RequestContext(id: nil)
                continuation.resume(
                    returning: context.startTask {
                        report.yield([loop.isInLoopThread, RequestContext.current === context])
                        for await _ in gate { break }
                        report.yield([Task.isCancelled])
                    })
            }
        }
        let task = try #require(placed)
        var seen: [[Bool]] = []
        for await flags in reports {
            seen.append(flags)
            if seen.count == 1 {
                // The job waits at the gate now (or is about to, in the same run on the loop): the
                // cancel, handed to the loop, runs before the job's resumption does.
                task.cancel()
                open.finish()
            } else {
                break
            }
        }
        #expect(seen == [[true, true], [true]])
    }

    @Test func startTask_KeepsNoTask_OffAnEventLoop() {
        #expect(RequestContext(id: nil).startTask {} == nil)
    }
}
