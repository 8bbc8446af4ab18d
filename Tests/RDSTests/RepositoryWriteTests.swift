import Foundation
import RDS
import RDSTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RepositoryWriteTests {
    private let fixture = RepositoryFixture()

    private static func stored(_ value: String) -> WriteResult<String> {
        WriteResult(
            reply: "ok",
            stored: Fetched(value: value, freshness: Freshness(lifetime: 30), validators: Validators(etag: "\"w\"")))
    }

    @Test func save_StoresServiceAnswer_AndPublishesExactlyOneState() async throws {
        try await fixture.prime("london", "london-1")
        let recorder = await fixture.record("london")
        fixture.service.expectSave("london", .success(Self.stored("london-saved")))

        let result = try await fixture.repository.save("london-new", for: "london")

        #expect(result.reply == "ok")
        let entry = try #require(fixture.datastore.peek("london"))
        #expect(entry.value == "london-saved")
        #expect(entry.expiresAt == fixture.clock.now.addingTimeInterval(30))
        #expect(entry.validators == Validators(etag: "\"w\""))
        #expect(await recorder.next(1).map(\.summary) == ["loaded(london-saved, write)"])
        try await fixture.repository.purge("london")
        #expect(await recorder.next(1).map(\.summary) == ["initialized"])
        #expect(recorder.states.count == 3)
    }

    @Test func save_KeepsSourceValue_AndThrowsChain_WhenServiceRefuses() async throws {
        try await fixture.prime("london", "london-1")
        let before = fixture.datastore.peek("london")
        let recorder = await fixture.record("london")
        fixture.service.expectSave("london", .failure(ServiceError(.rejected, "read-only", details: ["status": "403"])))

        let error = try await #require(throws: RepositoryError.self) {
            try await fixture.repository.save("london-new", for: "london")
        }

        #expect(ErrorChain(error).links.map(\.code) == ["write_failed", "upstream_rejected"])
        #expect(fixture.datastore.peek("london") == before)
        try await fixture.repository.purge("london")
        #expect(await recorder.next(1).map(\.summary) == ["initialized"])
        #expect(recorder.states.count == 2)
    }

    @Test func delete_DropsKey_AndPublishesInitialized() async throws {
        try await fixture.prime("london", "london-1")
        let recorder = await fixture.record("london")
        fixture.service.expectDelete("london", .success(WriteResult(reply: nil, stored: nil)))

        let result = try await fixture.repository.delete("london")

        #expect(result.stored == nil)
        #expect(fixture.datastore.peek("london") == nil)
        #expect(await recorder.next(1).map(\.summary) == ["initialized"])
        fixture.service.expectSave("london", .success(Self.stored("london-2")))
        try await fixture.repository.save("london-2", for: "london")
        #expect(await recorder.next(1).map(\.summary) == ["loaded(london-2, write)"])
        #expect(recorder.states.count == 3)
    }

    @Test func delete_KeepsEntry_WhenServiceFails() async throws {
        try await fixture.prime("london", "london-1")
        fixture.service.expectDelete("london", .failure(ServiceError(.unavailable, "down")))

        let error = try await #require(throws: RepositoryError.self) { try await fixture.repository.delete("london") }

        #expect(error.kind == .writeFailed)
        #expect((error.inner as? ServiceError)?.kind == .unavailable)
        #expect(fixture.datastore.peek("london")?.value == "london-1")
    }

    @Test func save_DropsOldEntry_WhenDatastoreCannotStoreTheAnswer() async throws {
        try await fixture.prime("london", "london-1")
        let recorder = await fixture.record("london")
        fixture.datastore.failSaves(true)
        fixture.service.expectSave("london", .success(Self.stored("london-saved")))

        try await fixture.repository.save("london-new", for: "london")

        #expect(await recorder.next(1).map(\.summary) == ["initialized"])
        #expect(fixture.datastore.peek("london") == nil)
        #expect(fixture.logger.events == ["datastore_write_failed"])
    }

    @Test func save_WinsOverAFetchUnderWay() async throws {
        let recorder = await fixture.record("london")
        let (read, gate) = await fixture.startHeldRead("london", answering: "london-old")
        fixture.service.expectSave("london", .success(Self.stored("london-saved")))

        try await fixture.repository.save("london-new", for: "london")
        gate.open()
        let answer = try await read.value

        #expect(answer.value == "london-old")
        #expect(answer.cacheStatus == .bypass)
        #expect(fixture.datastore.peek("london")?.value == "london-saved")
        #expect(await recorder.next(2).map(\.summary) == ["loading(nil)", "loaded(london-saved, write)"])
        try await fixture.repository.purge("london")
        #expect(await recorder.next(1).map(\.summary) == ["initialized"])
        #expect(recorder.states.count == 4)
    }

    @Test func purgeAll_EmptiesDatastore_AndResetsEveryWatchedKey() async throws {
        try await fixture.prime("london", "london-1")
        try await fixture.prime("paris", "paris-1")
        let london = await fixture.record("london")
        let paris = await fixture.record("paris")

        try await fixture.repository.purgeAll()

        #expect((fixture.datastore.count == 0))
        #expect(await london.next(1).map(\.summary) == ["initialized"])
        #expect(await paris.next(1).map(\.summary) == ["initialized"])
    }
}
