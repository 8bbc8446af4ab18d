import Foundation
import RDS
import RDSTesting
import Redis
import Testing

@testable import Gateway

/// The fetch lease alone against a real `redis-server`: one holder, waiters woken by the
/// holder's announcement, and a crashed holder's lease expiring.
@Suite(.enabled(if: RedisTestServer.isEnabled, "needs redis-server (apt-get install redis-server)"))
struct RedisFetchCoordinatorTests {
    private static func replica(_ server: RedisTestServer) throws -> SharedCache {
        let shared = try SharedCache(
            settings: RedisSettings(url: server.url, prefix: "f:", connectTimeout: 5, commandTimeout: 5, lease: 30),
            logger: RecordingLogger())
        shared.start()
        return shared
    }

    @Test func holder_Fetches_WaiterWakesOnItsAnnouncement() async throws {
        let server = try await RedisTestServer.start()
        let (a, b) = (try Self.replica(server), try Self.replica(server))
        let holder = RedisFetchCoordinator<String>(repository: "items", shared: a)
        let waiter = RedisFetchCoordinator<String>(repository: "items", shared: b)
        guard case .granted(let release) = await holder.acquire("k") else {
            Issue.record("the first replica did not get the lease")
            return
        }
        let waiting = Task { await waiter.acquire("k") }
        try #require(await eventually { b.waiters.count > 0 })
        let clock = ManualClock()
        try await RedisDatastore<String, String>(repository: "items", shared: a, clock: clock, retention: 0)
            .save(CacheEntry(value: "v", storedAt: clock.now, expiresAt: clock.now + 60), for: "k")
        // Taken before the release: the done mark is set after it, so it lasts at least a second from here.
        let releasing = ContinuousClock.now
        await release()
        guard case .waited = await waiting.value else {
            Issue.record("the waiter was not told to read the stored answer")
            return
        }
        #expect(b.statistics.leaseWaits == 1)
        // The lease is marked done for a second: a late comer reads the answer without waiting
        // (on a machine too loaded to ask within that second, the mark has rightly expired).
        if case .granted = await waiter.acquire("k"), ContinuousClock.now - releasing < .milliseconds(900) {
            Issue.record("a late comer took the lease again while it was marked done")
        }
        a.stop()
        b.stop()
        await server.stop()
    }

    @Test func crashedHolder_ItsLeaseExpires_AndTheWaiterGoesOn() async throws {
        let server = try await RedisTestServer.start()
        let b = try Self.replica(server)
        let raw = RedisClient(configuration: try RedisConfiguration(url: server.url, commandTimeout: .seconds(5)))
        let lease = b.leaseKey(repository: "items", keyBytes: Array("k".utf8))
        // Taken before the ghost's lease is set, so the lease expires at least three seconds from here.
        let started = ContinuousClock.now
        try await raw.send(RedisCommand(parts: [Array("SET".utf8), lease, Array("ghost".utf8), Array("PX".utf8), Array("3000".utf8)]))
        let outcome = await RedisFetchCoordinator<String>(repository: "items", shared: b).acquire("k")
        let elapsed = ContinuousClock.now - started
        switch outcome {
        case .waited:
            // The waiter sleeps the lease's remaining time out, unless a flush of the local levels
            // (the stream reader rejoined on a loaded machine) woke it, as it wakes every waiter.
            if b.statistics.flushes == 0 {
                #expect(elapsed >= .milliseconds(2_900), "woke after \(elapsed), before the ghost's lease expired")
            }
        case .granted where elapsed >= .seconds(3):
            break  // A machine too loaded to ask within three seconds rightly finds the lease expired.
        default:
            Issue.record("no wait for the ghost's lease: \(outcome) after \(elapsed)")
        }
        #expect(b.waiters.count == 0)
        b.stop()
        await server.stop()
    }

    @Test func redisDown_FetchesUncoordinated() async throws {
        let server = try await RedisTestServer.start()
        let b = try Self.replica(server)
        await server.stop()
        guard case .uncoordinated = await RedisFetchCoordinator<String>(repository: "items", shared: b).acquire("k") else {
            Issue.record("coordinated without Redis")
            return
        }
        b.stop()
    }
}
