import Foundation
import RDS
import RDSTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RepositoryCachedAnswerTests {
    @Test func cachedAnswer_IsNil_WhenNothingIsStored() {
        let fixture = RepositoryFixture()
        #expect(fixture.repository.cachedAnswer(for: "london") == nil)
    }

    @Test func cachedAnswer_ReturnsFreshHit_Synchronously() async throws {
        let fixture = RepositoryFixture()
        try await fixture.prime("london", "london-1")
        fixture.clock.advance(by: 59)

        let answer = try #require(fixture.repository.cachedAnswer(for: "london"))

        #expect(answer.value == "london-1")
        #expect(answer.cacheStatus == .hit)
        #expect(answer.entry?.value == "london-1")
    }

    @Test func cachedAnswer_IsNil_OnceStale() async throws {
        let fixture = RepositoryFixture(policy: RepositoryPolicy(staleWhileRevalidate: 60))
        try await fixture.prime("london", "london-1")
        fixture.clock.advance(by: 60)

        #expect(fixture.repository.cachedAnswer(for: "london") == nil)
    }

    @Test func cachedAnswer_StartsOneRefreshAhead_WhenDue() async throws {
        let fixture = RepositoryFixture(policy: RepositoryPolicy(refreshAhead: 0.5))
        try await fixture.prime("london", "london-1", lifetime: 100)
        let recorder = await fixture.record("london")
        fixture.clock.advance(by: 50)
        let gate = FakeGate()
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-2"), heldBy: gate)

        let first = fixture.repository.cachedAnswer(for: "london")
        let second = fixture.repository.cachedAnswer(for: "london")

        #expect([first, second].map { $0?.value } == ["london-1", "london-1"])
        await gate.waitForArrivals(1)
        gate.open()
        #expect(await recorder.next(2).map(\.summary) == ["loading(london-1)", "loaded(london-2, service)"])
        #expect(fixture.service.getCount(for: "london") == 2)
    }

    @Test func cachedAnswer_IsNil_ForDatastoresThatCannotPeek() async throws {
        let fixture = RepositoryFixture()
        try await fixture.prime("london", "london-1")
        let store = RepositoryStore(
            datastore: OpaqueDatastore(fixture.datastore), clock: fixture.clock, logger: fixture.logger)
        let repository = Repository(name: "weather", store: store, service: fixture.service, policy: RepositoryPolicy())

        #expect(repository.cachedAnswer(for: "london") == nil)
        #expect(try await repository.get("london").cacheStatus == .hit)
    }
}
