import Foundation
import RDS
import RDSTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RepositoryFreshnessTests {
    @Test(arguments: [
        (Freshness(lifetime: 5), 10.0),
        (Freshness(lifetime: 1_000), 100.0),
        (Freshness(lifetime: 60, age: 20), 40.0),
        (Freshness(), 42.0),
    ])
    func timeToLive_ClampsUpstreamLifetime(freshness: Freshness, expected: TimeInterval) {
        let policy = RepositoryPolicy(minTTL: 10, maxTTL: 100, defaultTTL: 42)
        #expect(policy.timeToLive(for: freshness) == expected)
    }

    @Test func get_StoresWithClampedTTL() async throws {
        let fixture = RepositoryFixture(policy: RepositoryPolicy(minTTL: 10, maxTTL: 100))
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-1", lifetime: 3_600))

        let answer = try await fixture.repository.get("london")

        #expect(answer.entry?.expiresAt == fixture.clock.now.addingTimeInterval(100))
        #expect(fixture.datastore.peek("london")?.expiresAt == fixture.clock.now.addingTimeInterval(100))
    }

    @Test func get_UsesDefaultTTL_WhenUpstreamGivesNone() async throws {
        let fixture = RepositoryFixture(policy: RepositoryPolicy(defaultTTL: 42))
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-1", lifetime: nil))

        let answer = try await fixture.repository.get("london")

        #expect(answer.entry?.expiresAt == fixture.clock.now.addingTimeInterval(42))
    }

    @Test func get_Bypasses_WhenUpstreamForbidsStoring() async throws {
        let fixture = RepositoryFixture()
        try await fixture.prime("london", "london-0")
        fixture.clock.advance(by: 60)
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-1", isStorable: false))
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-2", isStorable: false))

        let first = try await fixture.repository.get("london")
        let second = try await fixture.repository.get("london")

        #expect(first.cacheStatus == .bypass)
        #expect(first.entry == nil)
        #expect(second.value == "london-2")
        #expect(fixture.datastore.peek("london") == nil)
        #expect(fixture.service.getCount(for: "london") == 3)
    }

    @Test func get_ServesStaleAndRefreshesOnce_WithinStaleWhileRevalidate() async throws {
        let fixture = RepositoryFixture(policy: RepositoryPolicy(staleWhileRevalidate: 30))
        try await fixture.prime("london", "london-1")
        let recorder = await fixture.record("london")
        fixture.clock.advance(by: 70)
        let gate = FakeGate()
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-2"), heldBy: gate)

        let first = try await fixture.repository.get("london")
        let second = try await fixture.repository.get("london")

        #expect([first, second].map(\.cacheStatus) == [.stale, .stale])
        #expect([first, second].map(\.value) == ["london-1", "london-1"])
        await gate.waitForArrivals(1)
        gate.open()
        #expect(await recorder.next(2).map(\.summary) == ["loading(london-1)", "loaded(london-2, service)"])
        let third = try await fixture.repository.get("london")
        #expect(third.value == "london-2")
        #expect(third.cacheStatus == .hit)
        #expect(fixture.service.getCount(for: "london") == 2)
    }

    @Test func get_FetchesBeforeAnswering_PastStaleWhileRevalidateWindow() async throws {
        let fixture = RepositoryFixture(policy: RepositoryPolicy(staleWhileRevalidate: 30))
        try await fixture.prime("london", "london-1")
        fixture.clock.advance(by: 90)
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-2"))

        let answer = try await fixture.repository.get("london")

        #expect(answer.value == "london-2")
        #expect(answer.cacheStatus == .miss)
    }

    @Test func get_ServesStaleWithError_WithinStaleIfError() async throws {
        let fixture = RepositoryFixture(policy: RepositoryPolicy(staleIfError: 300))
        try await fixture.prime("london", "london-1")
        let recorder = await fixture.record("london")
        fixture.clock.advance(by: 200)
        fixture.service.expectGet("london", throwing: ServiceError(.timeout, "slow upstream"))

        let answer = try await fixture.repository.get("london")

        #expect(answer.value == "london-1")
        #expect(answer.cacheStatus == .stale)
        let error = try #require(answer.error as? RepositoryError)
        #expect(ErrorChain(error).links.map(\.code) == ["fetch_failed", "upstream_timeout"])
        #expect(
            await recorder.next(2).map(\.summary) == ["loading(london-1)", "failed(fetch_failed, cached: london-1)"])
    }

    @Test func get_Throws_PastStaleIfErrorWindow() async throws {
        let fixture = RepositoryFixture(policy: RepositoryPolicy(staleIfError: 300))
        try await fixture.prime("london", "london-1")
        fixture.clock.advance(by: 60 + 300)
        fixture.service.expectGet("london", throwing: ServiceError(.timeout, "slow upstream"))

        let error = try await #require(throws: RepositoryError.self) { try await fixture.repository.get("london") }

        #expect(error.kind == .fetchFailed)
        #expect(fixture.repository.state(of: "london").summary == "failed(fetch_failed, cached: nil)")
        #expect(fixture.datastore.peek("london")?.value == "london-1")
    }

    @Test func get_NeverServesStale_WhenEntryMustRevalidate() async throws {
        let policy = RepositoryPolicy(staleWhileRevalidate: 300, staleIfError: 300)
        let fixture = RepositoryFixture(policy: policy)
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-1", mustRevalidate: true))
        _ = try await fixture.repository.get("london")
        fixture.clock.advance(by: 61)
        fixture.service.expectGet("london", throwing: ServiceError(.unavailable, "down"))

        let error = try await #require(throws: RepositoryError.self) { try await fixture.repository.get("london") }

        #expect((error.inner as? ServiceError)?.kind == .unavailable)
        #expect(fixture.service.getCount(for: "london") == 2)
    }

    @Test func get_RefreshesAheadOnce_AfterFractionOfLifetime() async throws {
        let fixture = RepositoryFixture(policy: RepositoryPolicy(refreshAhead: 0.8))
        try await fixture.prime("london", "london-1", lifetime: 100)
        let recorder = await fixture.record("london")
        fixture.clock.advance(by: 79)
        #expect(try await fixture.repository.get("london").cacheStatus == .hit)
        #expect(fixture.service.getCount(for: "london") == 1)
        let gate = FakeGate()
        fixture.service.expectGet(
            "london", returning: RepositoryFixture.fetched("london-2", lifetime: 100), heldBy: gate)
        fixture.clock.advance(by: 1)

        let due = try await fixture.repository.get("london")
        let again = try await fixture.repository.get("london")

        #expect([due, again].map(\.value) == ["london-1", "london-1"])
        #expect([due, again].map(\.cacheStatus) == [.hit, .hit])
        await gate.waitForArrivals(1)
        gate.open()
        #expect(await recorder.next(2).map(\.summary) == ["loading(london-1)", "loaded(london-2, service)"])
        #expect(fixture.service.getCount(for: "london") == 2)
        #expect(fixture.datastore.peek("london")?.expiresAt == fixture.clock.now.addingTimeInterval(100))
    }
}
