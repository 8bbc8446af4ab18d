import Foundation
import RDSTesting
import Testing

@testable import RDS

@Suite(.timeLimit(.minutes(1)))
struct RepositoryWriteRaceTests {
    @Test func save_IsStoredLast_WhenAFetchWasAlreadyStoringItsOlderAnswer() async throws {
        let datastore = HeldSaveDatastore(holding: "old")
        let service = FakeService<String, String>()
        let store = RepositoryStore(datastore: datastore, clock: ManualClock(), logger: RecordingLogger())
        let repository = Repository(name: "notes", store: store, service: service, policy: RepositoryPolicy())
        service.expectGet("n", returning: RepositoryFixture.fetched("old"))
        let written = Fetched(value: "new", freshness: Freshness(lifetime: 60), validators: Validators())
        service.expectSave("n", .success(WriteResult(reply: "ok", stored: written)))
        let recorder = StateRecorder(repository.states(of: "n"))
        _ = await recorder.next(1)

        let read = Task { try await repository.get("n") }
        await datastore.waitForHeldSave()
        let write = Task { try await repository.save("new", for: "n") }
        let writeWaitsOrStored = await eventually {
            datastore.savedValues.contains("new") || store.flights.writersWaiting(for: "n") == 1
        }
        datastore.releaseHeldSave()
        let answer = try await read.value
        _ = try await write.value

        #expect(writeWaitsOrStored)
        #expect(answer.value == "old")
        #expect(datastore.savedValues == ["old", "new"])
        #expect(datastore.peek("n")?.value == "new")
        #expect(repository.state(of: "n").summary == "loaded(new, write)")
        #expect(await recorder.next(2).map(\.summary) == ["loading(nil)", "loaded(new, write)"])
        #expect(service.unusedScripts == 0)
    }
}
