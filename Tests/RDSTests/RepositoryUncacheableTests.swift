import Foundation
import RDS
import RDSTesting
import Testing

/// An answer the upstream forbids storing drops what is stored for its key, and costs no
/// datastore write when nothing is (an uncacheable resource read again and again); for a while
/// after it, reads of the key skip the datastore lookups too (hit-for-pass).
@Suite(.timeLimit(.minutes(1)))
struct RepositoryUncacheableTests {
    private typealias Scripted = DatastoreTestFixtures.ScriptedDatastore

    private struct Fixture {
        let clock = ManualClock()
        let service = FakeService<String, String>()
        let disk = Scripted()
        let repository: Repository<String, String>

        init() {
            let datastore = TwoLevelDatastore(
                l1: MemoryDatastore<String, String>(maxBytes: 1 << 20, maxEntries: 100), l2: disk,
                logger: RecordingLogger())
            let store = RepositoryStore(datastore: datastore, clock: clock, logger: RecordingLogger())
            repository = Repository(name: "live", store: store, service: service, policy: RepositoryPolicy())
        }
    }

    @Test func get_LeavesTheDatastoreAlone_WhenNothingIsStoredAndTheAnswerMayNotBe() async throws {
        let fixture = Fixture()
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("1-0", isStorable: false))
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("2-0", isStorable: false))

        let first = try await fixture.repository.get("score")
        let second = try await fixture.repository.get("score")

        #expect(first.cacheStatus == .bypass && second.cacheStatus == .bypass)
        #expect(second.value == "2-0")
        #expect(fixture.disk.calls.allSatisfy { $0.hasPrefix("get ") })
        #expect(fixture.service.getCount(for: "score") == 2)
    }

    @Test func get_DropsTheStoredEntry_WhenTheNewAnswerMayNotBeStored() async throws {
        let fixture = Fixture()
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("0-0"))
        _ = try await fixture.repository.get("score")
        fixture.clock.advance(by: 61)
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("1-0", isStorable: false))

        let answer = try await fixture.repository.get("score")

        #expect(answer.cacheStatus == .bypass && answer.value == "1-0")
        #expect(fixture.disk.calls.contains("delete score"))
        #expect(fixture.disk.stored("score") == nil)
        #expect(fixture.repository.cachedAnswer(for: "score") == nil)
    }

    /// A cached read skips the lookups while the last answer could not be stored; a reload does not.
    @Test(arguments: [(ReadIntent.cached, false), (ReadIntent.reload, true)])
    func secondRead_LooksUp_OnlyWhenItsIntentIgnoresThePassMark(intent: ReadIntent, looksUp: Bool) async throws {
        let fixture = Fixture()
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("1-0", isStorable: false))
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("2-0", isStorable: false))
        _ = try await fixture.repository.get("score")
        let lookupsAfterFirst = fixture.disk.calls.count

        let second = try await fixture.repository.get("score", intent: intent)

        #expect(second.value == "2-0" && second.cacheStatus == .bypass)
        #expect(lookupsAfterFirst > 0)
        #expect((fixture.disk.calls.count > lookupsAfterFirst) == looksUp)
    }

    /// The fast path's look-up says whether the key is marked, and a read given that answer
    /// follows it instead of looking the mark up again.
    @Test func cachedAnswer_TellsThePassMark_AndGetFollowsWhatItIsGiven() async throws {
        let fixture = Fixture()
        var unread: Bool?
        let none = fixture.repository.cachedAnswer(for: "score", passing: &unread)
        #expect(none == nil && unread == false)
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("1-0", isStorable: false))
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("2-0", isStorable: false))
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("3-0", isStorable: false))
        _ = try await fixture.repository.get("score")
        let lookupsAfterFirst = fixture.disk.calls.count

        var marked: Bool?
        let found = fixture.repository.cachedAnswer(for: "score", passing: &marked)
        let passed = try await fixture.repository.get("score", passing: marked)
        let lookupsAfterPassed = fixture.disk.calls.count
        let lookedUp = try await fixture.repository.get("score", passing: false)

        #expect(found == nil && marked == true)
        #expect(passed.value == "2-0" && lookupsAfterPassed == lookupsAfterFirst)
        #expect(lookedUp.value == "3-0" && fixture.disk.calls.count > lookupsAfterPassed)
    }

    @Test func cachedAnswer_DoesNotTellThePassMark_OfAStaleEntry() async throws {
        let fixture = Fixture()
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("0-0"))
        _ = try await fixture.repository.get("score")
        fixture.clock.advance(by: 61)

        var passing: Bool?
        let found = fixture.repository.cachedAnswer(for: "score", passing: &passing)

        #expect(found == nil && passing == nil)
    }

    @Test func get_LooksUpAgain_OnceThePassMarkHasExpired_AndStoresACacheableAnswer() async throws {
        let fixture = Fixture()
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("1-0", isStorable: false))
        _ = try await fixture.repository.get("score")
        fixture.clock.advance(by: 121)
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("2-0"))
        let lookupsBefore = fixture.disk.calls.count

        let answer = try await fixture.repository.get("score")
        let again = try await fixture.repository.get("score")

        #expect(fixture.disk.calls.count > lookupsBefore)
        #expect(answer.cacheStatus == .miss && again.cacheStatus == .hit && again.value == "2-0")
        #expect(fixture.service.getCount(for: "score") == 2)
    }

    /// The mark lasts its window from the answer that set it: a pass-through's answer does not renew it.
    @Test func passThrough_DoesNotRenewThePassMark() async throws {
        let fixture = Fixture()
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("1-0", isStorable: false))
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("2-0", isStorable: false))
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("3-0", isStorable: false))
        _ = try await fixture.repository.get("score")
        fixture.clock.advance(by: 100)
        let lookupsBefore = fixture.disk.calls.count

        let passed = try await fixture.repository.get("score")
        let lookupsAfterPassed = fixture.disk.calls.count
        fixture.clock.advance(by: 30)
        let expired = try await fixture.repository.get("score")

        #expect(passed.value == "2-0" && lookupsAfterPassed == lookupsBefore)
        #expect(expired.value == "3-0" && fixture.disk.calls.count > lookupsAfterPassed)
    }

    @Test func get_StoresACacheableAnswer_OfAPassedKey_AndServesItFromTheCache() async throws {
        let fixture = Fixture()
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("1-0", isStorable: false))
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("2-0"))
        _ = try await fixture.repository.get("score")

        let passed = try await fixture.repository.get("score")
        let cached = try await fixture.repository.get("score")

        #expect(passed.cacheStatus == .miss && passed.value == "2-0")
        #expect(cached.cacheStatus == .hit && cached.value == "2-0")
        #expect(fixture.service.getCount(for: "score") == 2)
    }
}
