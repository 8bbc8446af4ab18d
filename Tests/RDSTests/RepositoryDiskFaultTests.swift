import Foundation
import RDS
import RDSTesting
import Testing

/// A failing disk level degrades caching to memory; it never turns caching off nor loses the
/// entry that stale-if-error needs.
@Suite(.timeLimit(.minutes(1)))
struct RepositoryDiskFaultTests {
    private typealias Scripted = DatastoreTestFixtures.ScriptedDatastore
    private typealias TwoLevel = TwoLevelDatastore<MemoryDatastore<String, String>, Scripted>

    private struct Fixture {
        let clock = ManualClock()
        let service = FakeService<String, String>()
        let disk = Scripted()
        let datastore: TwoLevel
        let logger = RecordingLogger()
        let repository: Repository<String, String>

        init(policy: RepositoryPolicy = RepositoryPolicy(staleIfError: 600)) {
            datastore = TwoLevelDatastore(
                l1: MemoryDatastore(maxBytes: 1 << 20, maxEntries: 100), l2: disk, logger: logger)
            let store = RepositoryStore(datastore: datastore, clock: clock, logger: logger)
            repository = Repository(name: "weather", store: store, service: service, policy: policy)
        }
    }

    @Test func get_KeepsCaching_WhenTheDiskLevelCannotBeWritten() async throws {
        let fixture = Fixture()
        fixture.disk.fail("save")
        fixture.disk.fail("renew")
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-1"))

        let first = try await fixture.repository.get("london")
        let second = try await fixture.repository.get("london")

        #expect(first.cacheStatus == .miss)
        #expect(first.entry != nil)
        #expect(second.value == "london-1")
        #expect(second.cacheStatus == .hit)
        #expect(fixture.service.getCount(for: "london") == 1)
        #expect(fixture.repository.cachedAnswer(for: "london")?.value == "london-1")
    }

    @Test func get_ServesStaleIfError_AfterARevalidationCouldNotWriteTheDisk() async throws {
        let fixture = Fixture()
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-1", etag: "\"v1\""))
        _ = try await fixture.repository.get("london")
        fixture.disk.fail("renew")
        fixture.disk.fail("delete")
        fixture.clock.advance(by: 61)
        fixture.service.expectGet("london", returning: .notModified(Freshness(lifetime: 60), Validators()))
        let revalidated = try await fixture.repository.get("london")
        fixture.clock.advance(by: 61)
        fixture.service.expectGet("london", throwing: ServiceError(.timeout, "slow upstream"))

        let answer = try await fixture.repository.get("london")

        #expect(revalidated.cacheStatus == .revalidated)
        #expect(answer.value == "london-1")
        #expect(answer.cacheStatus == .stale)
        #expect(answer.error != nil)
    }

    /// A revalidation answered “not modified” renews the entry in every level, and so does the
    /// first answer of a key nothing was stored for (the disk level may write either behind:
    /// losing it loses freshness or a cached copy, never a newer value); a fetched answer that
    /// replaces an entry is saved.
    @Test func get_RenewsTheEntryInBothLevels_WhenTheServiceAnswersNotModified() async throws {
        let fixture = Fixture()
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-1", etag: "\"v1\""))
        _ = try await fixture.repository.get("london")
        fixture.clock.advance(by: 61)
        fixture.service.expectGet("london", returning: .notModified(Freshness(lifetime: 60), Validators()))

        let revalidated = try await fixture.repository.get("london")

        #expect(revalidated.cacheStatus == .revalidated)
        #expect(fixture.disk.calls == ["get london", "renew london", "renew london"])
        #expect(fixture.disk.stored("london")?.expiresAt == fixture.clock.now.addingTimeInterval(60))
        #expect(fixture.datastore.peek("london")?.expiresAt == fixture.clock.now.addingTimeInterval(60))

        fixture.clock.advance(by: 61)
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-2"))
        let changed = try await fixture.repository.get("london")

        #expect(changed.value == "london-2")
        #expect(fixture.disk.calls.last == "save london")
    }

    @Test func save_KeepsTheServiceAnswerInMemory_WhenTheDiskLevelFails() async throws {
        let fixture = Fixture()
        fixture.disk.fail("save")
        let stored = Fetched(value: "london-saved", freshness: Freshness(lifetime: 60), validators: Validators())
        fixture.service.expectSave("london", .success(WriteResult(reply: nil, stored: stored)))

        try await fixture.repository.save("london-new", for: "london")

        #expect(fixture.datastore.peek("london")?.value == "london-saved")
    }

    @Test func get_KeepsThePreviousEntry_WhenTheDatastoreCannotStoreAFetch() async throws {
        let fixture = RepositoryFixture(policy: RepositoryPolicy(staleIfError: 600))
        try await fixture.prime("london", "london-1")
        fixture.datastore.failSaves(true)
        fixture.clock.advance(by: 61)
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-2"))
        let fetched = try await fixture.repository.get("london")
        fixture.service.expectGet("london", throwing: ServiceError(.timeout, "slow upstream"))

        let answer = try await fixture.repository.get("london")

        #expect(fetched.value == "london-2")
        #expect(fetched.cacheStatus == .bypass)
        #expect(answer.value == "london-1")
        #expect(answer.cacheStatus == .stale)
    }
}
