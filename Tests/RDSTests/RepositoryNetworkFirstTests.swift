import Foundation
import RDS
import RDSTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RepositoryNetworkFirstTests {
    private let fixture = RepositoryFixture(policy: RepositoryPolicy(mode: .networkFirst, staleIfError: 120))

    @Test func get_AsksService_EvenWhenEntryIsFresh() async throws {
        try await fixture.prime("london", "london-1")
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-2"))

        let answer = try await fixture.repository.get("london")

        #expect(answer.value == "london-2")
        #expect(answer.cacheStatus == .miss)
        #expect(fixture.service.getCount(for: "london") == 2)
    }

    @Test func get_FallsBackToFreshEntry_WhenServiceFails() async throws {
        try await fixture.prime("london", "london-1")
        let recorder = await fixture.record("london")
        fixture.service.expectGet("london", throwing: ServiceError(.unavailable, "down"))

        let answer = try await fixture.repository.get("london")

        #expect(answer.value == "london-1")
        #expect(answer.cacheStatus == .hit)
        #expect((answer.error as? RepositoryError)?.kind == .fetchFailed)
        #expect(
            await recorder.next(2).map(\.summary) == ["loading(london-1)", "failed(fetch_failed, cached: london-1)"])
    }

    @Test func get_Throws_WhenServiceFailsAndEntryIsTooStale() async throws {
        try await fixture.prime("london", "london-1")
        fixture.clock.advance(by: 60 + 120)
        fixture.service.expectGet("london", throwing: ServiceError(.unavailable, "down"))

        let error = try await #require(throws: RepositoryError.self) { try await fixture.repository.get("london") }

        #expect((error.inner as? ServiceError)?.kind == .unavailable)
    }

    @Test func cachedAnswer_IsNil_BecauseTheServiceAnswersEveryRead() async throws {
        try await fixture.prime("london", "london-1")

        #expect(fixture.repository.cachedAnswer(for: "london") == nil)
    }
}
