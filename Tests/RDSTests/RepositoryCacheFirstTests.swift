import Foundation
import RDS
import RDSTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RepositoryCacheFirstTests {
    @Test func get_FetchesStoresAndPublishes_WhenCold() async throws {
        let fixture = RepositoryFixture()
        let recorder = await fixture.record("london")
        fixture.service.expectGet("london", ifChangedFrom: .some(nil), returning: RepositoryFixture.fetched("london-1"))

        let answer = try await fixture.repository.get("london")

        #expect(answer.value == "london-1")
        #expect(answer.cacheStatus == .miss)
        #expect(answer.error == nil)
        let stored = try #require(fixture.datastore.peek("london"))
        #expect(stored.value == "london-1")
        #expect(stored.expiresAt == fixture.clock.now.addingTimeInterval(60))
        #expect(answer.entry == stored)
        #expect(await recorder.next(2).map(\.summary) == ["loading(nil)", "loaded(london-1, service)"])
        #expect(recorder.states.first?.summary == "initialized")
        #expect(fixture.service.getCount(for: "london") == 1)
    }

    @Test func get_ServesHitWithoutService_WhileFresh() async throws {
        let fixture = RepositoryFixture()
        try await fixture.prime("london", "london-1")
        fixture.clock.advance(by: 59)

        let answer = try await fixture.repository.get("london")

        #expect(answer.value == "london-1")
        #expect(answer.cacheStatus == .hit)
        #expect(fixture.service.getCount(for: "london") == 1)
    }

    @Test func get_FetchesAgain_OnceStale() async throws {
        let fixture = RepositoryFixture()
        try await fixture.prime("london", "london-1")
        let recorder = await fixture.record("london")
        fixture.clock.advance(by: 60)
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-2"))

        let answer = try await fixture.repository.get("london")

        #expect(answer.value == "london-2")
        #expect(answer.cacheStatus == .miss)
        #expect(recorder.states.first?.summary == "loaded(london-1, cache)")
        #expect(await recorder.next(2).map(\.summary) == ["loading(london-1)", "loaded(london-2, service)"])
        #expect(fixture.service.getCount(for: "london") == 2)
    }

    @Test func get_ThrowsChain_WhenServiceFailsAndNothingIsStored() async throws {
        let fixture = RepositoryFixture()
        let recorder = await fixture.record("atlantis")
        fixture.service.expectGet("atlantis", throwing: ServiceError(.notFound, "no such city"))

        let error = try await #require(throws: RepositoryError.self) { try await fixture.repository.get("atlantis") }

        #expect(error.kind == .fetchFailed)
        #expect((error.inner as? ServiceError)?.kind == .notFound)
        #expect(error.details["repository"] == "weather")
        #expect(await recorder.next(2).map(\.summary) == ["loading(nil)", "failed(fetch_failed, cached: nil)"])
        #expect(fixture.logger.events == ["fetch_failed"])
        #expect((fixture.datastore.count == 0))
    }

    @Test func state_IsRestingCacheState_WhenNobodyWatches() async throws {
        let fixture = RepositoryFixture()
        #expect(fixture.repository.state(of: "london").summary == "initialized")
        try await fixture.prime("london", "london-1")

        #expect(fixture.repository.state(of: "london").summary == "loaded(london-1, cache)")
        #expect(fixture.store.broadcasters.count == 0)
    }
}
