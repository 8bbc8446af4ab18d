import RDS
import RDSTesting
import Testing

struct RefreshLimiterTests {
    @Test func run_LetsAtMostTheLimitRunAtOnce() async {
        let limiter = RefreshLimiter(limit: 2)
        let gate = FakeGate()
        let done = CountLatch()
        for _ in 0..<5 {
            Task {
                await limiter.run { await gate.pass() }
                done.increment()
            }
        }
        await gate.waitForArrivals(2)
        #expect(await eventually { limiter.waiting >= 3 })
        #expect(limiter.running == 2)
        gate.open()
        await done.wait(until: 5)
        #expect(limiter.running == 0)
        #expect(limiter.waiting == 0)
    }
}
