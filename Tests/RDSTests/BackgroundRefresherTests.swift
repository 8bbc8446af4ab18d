import Foundation
import RDS
import RDSTesting
import Testing

struct BackgroundRefresherTests {
    private func makeRefresher(
        _ fixture: RepositoryFixture, keys: RefreshPolicy.Keys, interval: TimeInterval? = nil,
        recentWindow: TimeInterval = 300
    ) -> (BackgroundRefresher<String, String>, RefreshScheduler) {
        let scheduler = RefreshScheduler(clock: fixture.clock)
        let refresher = BackgroundRefresher(
            repository: fixture.repository,
            policy: RefreshPolicy(keys: keys, beforeExpiry: interval == nil ? 0.8 : nil, interval: interval,
                recentWindow: recentWindow),
            scheduler: scheduler, limiter: RefreshLimiter(limit: 2), random: { 0 })
        return (refresher, scheduler)
    }

    /// Waits until the refresher's next refresh of `key` is `date` (its timer set after a check).
    private func waitForNextRefresh(
        _ refresher: BackgroundRefresher<String, String>, _ key: String, _ date: Date?
    ) async {
        #expect(await eventually { refresher.nextRefresh(of: key) == date })
    }

    @Test func subscribedKey_IsRevalidatedBeforeExpiry_WithoutAnyRead() async throws {
        let fixture = RepositoryFixture()
        let start = fixture.clock.now
        try await fixture.prime("k", "v1", lifetime: 60, etag: "\"1\"")
        let (refresher, scheduler) = makeRefresher(fixture, keys: .subscribed)
        let recorder = await fixture.record("k")
        refresher.noteSubscribed("k")
        await waitForNextRefresh(refresher, "k", start + 48)
        fixture.service.expectGet(
            "k", ifChangedFrom: Validators(etag: "\"1\""),
            returning: .notModified(Freshness(lifetime: 60), Validators(etag: "\"1\"")))
        fixture.clock.advance(by: 48)
        #expect(recorder.states.first?.summary == "loaded(v1, cache)")
        #expect(await recorder.next(2).map(\.summary) == ["loading(v1)", "loaded(v1, revalidated)"])
        await waitForNextRefresh(refresher, "k", start + 96)
        #expect(fixture.service.unusedScripts == 0)
        recorder.cancel()
        scheduler.stop()
    }

    @Test func failedRefresh_ShowsTheCachedValue_AndBacksOff() async throws {
        let fixture = RepositoryFixture()
        let start = fixture.clock.now
        try await fixture.prime("k", "v1", lifetime: 60)
        let (refresher, scheduler) = makeRefresher(fixture, keys: .warmUp)
        let recorder = await fixture.record("k")
        refresher.followWarmUp(["k"])
        await waitForNextRefresh(refresher, "k", start + 48)
        fixture.service.expectGet("k", throwing: ServiceError(.unavailable, "down"))
        fixture.clock.advance(by: 48)
        #expect(await recorder.next(2).last?.summary == "failed(fetch_failed, cached: v1)")
        await waitForNextRefresh(refresher, "k", start + 49)
        fixture.service.expectGet("k", throwing: ServiceError(.unavailable, "down"))
        fixture.clock.advance(by: 1)
        _ = await recorder.next(2)
        await waitForNextRefresh(refresher, "k", start + 51)
        fixture.service.expectGet("k", returning: RepositoryFixture.fetched("v2", lifetime: 60))
        fixture.clock.advance(by: 2)
        #expect(await recorder.next(2).last?.summary == "loaded(v2, service)")
        await waitForNextRefresh(refresher, "k", start + 51 + 48)
        recorder.cancel()
        scheduler.stop()
    }

    @Test func recentKey_IsDropped_OnceNotReadWithinTheWindow() async throws {
        let fixture = RepositoryFixture()
        try await fixture.prime("k", "v1", lifetime: 60)
        let (refresher, scheduler) = makeRefresher(fixture, keys: .recent, recentWindow: 30)
        refresher.noteRead("k")
        #expect(refresher.followedCount == 1)
        await waitForNextRefresh(refresher, "k", fixture.clock.now + 48)
        fixture.clock.advance(by: 48)
        #expect(await eventually { refresher.followedCount == 0 })
        #expect(fixture.service.getCount(for: "k") == 1)
        scheduler.stop()
    }

    @Test func interval_RefreshesAValueWithoutLifetime() async throws {
        let fixture = RepositoryFixture()
        let start = fixture.clock.now
        try await fixture.prime("k", "v1", lifetime: 0)
        let (refresher, scheduler) = makeRefresher(fixture, keys: .warmUp, interval: 10)
        refresher.followWarmUp(["k"])
        await waitForNextRefresh(refresher, "k", start + 10)
        fixture.service.expectGet("k", returning: RepositoryFixture.fetched("v2", lifetime: 0))
        fixture.clock.advance(by: 10)
        await waitForNextRefresh(refresher, "k", start + 20)
        #expect(fixture.service.getCount(for: "k") == 2)
        scheduler.stop()
    }

    @Test func unsubscribedKey_IsNotFollowed_ByAPolicyForOtherKeys() {
        let fixture = RepositoryFixture()
        let (refresher, scheduler) = makeRefresher(fixture, keys: .warmUp)
        refresher.noteSubscribed("k")
        refresher.noteRead("k")
        #expect(refresher.followedCount == 0)
        scheduler.stop()
    }
}
