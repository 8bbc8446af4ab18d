import Foundation
import RDS
import RDSTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RepositoryRevalidationTests {
    private static let etag = Validators(etag: "\"v1\"")

    @Test func get_RevalidatesConditionally_AndRenewsEntryOnNotModified() async throws {
        let fixture = RepositoryFixture()
        try await fixture.prime("london", "london-1", etag: "\"v1\"")
        let (renewalsInPlaceBefore, revalidationsInPlaceBefore) =
            (fixture.datastore.renewalsInPlace, fixture.datastore.revalidationsInPlace)
        let recorder = await fixture.record("london")
        fixture.clock.advance(by: 61)
        fixture.service.expectGet(
            "london", ifChangedFrom: .some(Self.etag), returning: .notModified(Freshness(lifetime: 120), Validators()))
        let peeksBefore = fixture.datastore.peeks

        let answer = try await fixture.repository.get("london")
        let peeks = fixture.datastore.peeks - peeksBefore

        #expect(answer.value == "london-1")
        #expect(answer.cacheStatus == .revalidated)
        let stored = try #require(fixture.datastore.peek("london"))
        #expect(stored.value == "london-1")
        #expect(stored.storedAt == fixture.clock.now)
        #expect(stored.expiresAt == fixture.clock.now.addingTimeInterval(120))
        #expect(stored.validators == Self.etag)
        #expect(answer.entry == stored)
        // Renewed as a revalidation (a disk level behind may skip its write), not as a first entry.
        #expect(fixture.datastore.revalidationsInPlace == revalidationsInPlaceBefore + 1)
        #expect(fixture.datastore.renewalsInPlace == renewalsInPlaceBefore)
        // The stale entry is looked up once: nothing was stored since, so the fetch does not look again.
        #expect(peeks == 1)
        #expect(await recorder.next(2).map(\.summary) == ["loading(london-1)", "loaded(london-1, revalidated)"])
    }

    @Test func get_TakesNewValidators_FromNotModified() async throws {
        let fixture = RepositoryFixture()
        try await fixture.prime("london", "london-1", etag: "\"v1\"")
        fixture.clock.advance(by: 61)
        let renewed = Validators(etag: "\"v1\"", lastModified: "Thu, 01 Jan 2026 00:00:00 GMT")
        fixture.service.expectGet("london", returning: .notModified(Freshness(lifetime: 60), renewed))

        _ = try await fixture.repository.get("london")

        #expect(fixture.datastore.peek("london")?.validators == renewed)
    }

    /// A service that updates the stored value from its "not modified" answer (an HTTP cache
    /// merges the 304's header fields, RFC 9111 §4.3.4): the renewed value is stored and served.
    @Test func get_StoresTheRenewedValue_WhenNotModifiedRenewsIt() async throws {
        let fixture = RepositoryFixture()
        try await fixture.prime("london", "london-1", etag: "\"v1\"")
        fixture.clock.advance(by: 61)
        let response = ServiceResponse<String>.notModifiedRenewing { value in
            Fetched(value: value + "+renewed", freshness: Freshness(lifetime: 300), validators: Self.etag)
        }
        fixture.service.expectGet("london", returning: response)

        let answer = try await fixture.repository.get("london")

        #expect(answer.value == "london-1+renewed")
        #expect(answer.cacheStatus == .revalidated)
        let stored = try #require(fixture.datastore.peek("london"))
        #expect(stored.value == "london-1+renewed")
        #expect(stored.expiresAt == fixture.clock.now.addingTimeInterval(300))
    }

    @Test func get_RevalidatesFreshEntry_WhenIntentIsRevalidate() async throws {
        let fixture = RepositoryFixture()
        try await fixture.prime("london", "london-1", etag: "\"v1\"")
        fixture.service.expectGet(
            "london", ifChangedFrom: .some(Self.etag), returning: RepositoryFixture.fetched("london-2", etag: "\"v2\""))

        let answer = try await fixture.repository.get("london", intent: .revalidate)

        #expect(answer.value == "london-2")
        #expect(answer.cacheStatus == .miss)
        #expect(fixture.datastore.peek("london")?.validators == Validators(etag: "\"v2\""))
    }

    @Test func get_FetchesUnconditionally_WhenIntentIsReload() async throws {
        let fixture = RepositoryFixture()
        try await fixture.prime("london", "london-1", etag: "\"v1\"")
        fixture.service.expectGet("london", ifChangedFrom: .some(nil), returning: RepositoryFixture.fetched("london-2"))

        let answer = try await fixture.repository.get("london", intent: .reload)

        #expect(answer.value == "london-2")
        #expect(fixture.service.getCount(for: "london") == 2)
    }

    @Test(arguments: [
        ServiceResponse<String>.notModified(Freshness(lifetime: 60), Validators()),
        .notModifiedRenewing { Fetched(value: $0, freshness: Freshness(lifetime: 60)) },
    ])
    func get_Fails_WhenNotModifiedAnswersAnUnconditionalRequest(_ response: ServiceResponse<String>) async throws {
        let fixture = RepositoryFixture()
        fixture.service.expectGet("london", returning: response)

        let error = try await #require(throws: RepositoryError.self) { try await fixture.repository.get("london") }

        #expect((error.inner as? ServiceError)?.kind == .badResponse)
    }
}
