import Foundation
import RDS
import RDSTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RepositoryRefreshTests {
    private let fixture = RepositoryFixture()

    @Test func refresh_ReturnsNewValue_EvenWhenEntryIsFresh() async throws {
        try await fixture.prime("london", "london-1", etag: "\"v1\"")
        fixture.service.expectGet("london", ifChangedFrom: .some(nil), returning: RepositoryFixture.fetched("london-2"))

        let answer = try await fixture.repository.refresh("london")

        #expect(answer.value == "london-2")
        #expect(fixture.datastore.peek("london")?.value == "london-2")
    }

    @Test func refresh_Throws_InsteadOfServingStale() async throws {
        let fixture = RepositoryFixture(policy: RepositoryPolicy(staleIfError: 600))
        try await fixture.prime("london", "london-1")
        fixture.service.expectGet("london", throwing: ServiceError(.badResponse, "502"))

        let error = try await #require(throws: RepositoryError.self) { try await fixture.repository.refresh("london") }

        #expect((error.inner as? ServiceError)?.kind == .badResponse)
        #expect(fixture.datastore.peek("london")?.value == "london-1")
    }

    @Test func refreshInBackground_PublishesLoadingThenLoaded() async throws {
        try await fixture.prime("london", "london-1")
        let recorder = await fixture.record("london")
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-2"))

        fixture.repository.refreshInBackground("london")

        #expect(await recorder.next(2).map(\.summary) == ["loading(london-1)", "loaded(london-2, service)"])
        #expect(fixture.datastore.peek("london")?.value == "london-2")
    }

    @Test func refreshInBackground_PublishesFailure() async throws {
        let recorder = await fixture.record("london")
        fixture.service.expectGet("london", throwing: ServiceError(.unavailable, "down"))

        fixture.repository.refreshInBackground("london")

        #expect(await recorder.next(2).map(\.summary) == ["loading(nil)", "failed(fetch_failed, cached: nil)"])
    }

    @Test func warmUp_LoadsEveryKey_AndReportsEachResultInOrder() async throws {
        let keys = (0..<12).map { "city-\($0)" }
        for key in keys where key != "city-3" {
            fixture.service.expectGet(key, returning: RepositoryFixture.fetched("\(key)-v"))
        }
        fixture.service.expectGet("city-3", throwing: ServiceError(.notFound, "gone"))

        let results = await fixture.repository.warmUp(keys)

        #expect(results.map(\.key) == keys)
        #expect(results.map(\.succeeded) == keys.map { $0 != "city-3" })
        #expect(results.first.map { (try? $0.outcome.get()) == .miss } == true)
        #expect(fixture.datastore.count == 11)
        #expect(fixture.service.unusedScripts == 0)
    }
}
