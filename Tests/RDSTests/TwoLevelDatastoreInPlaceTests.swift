import Foundation
import RDS
import Testing

/// ``TwoLevelDatastore/promotedEntryInPlace(for:readingL2:)``: a disk entry read without suspending and
/// kept in memory, as ``TwoLevelDatastore/get(_:)`` promotes; ``TwoLevelDatastore/renewInPlace(_:for:renewingL2:)``:
/// a renewal kept in both levels without suspending, or in neither.
struct TwoLevelDatastoreInPlaceTests {
    private typealias Store = TwoLevelDatastore<MemoryDatastore<String, String>, FileDatastore<String, String>>

    private static func makeStore(in folder: DatastoreTestFixtures.Folder) throws -> Store {
        TwoLevelDatastore(
            l1: MemoryDatastore(maxBytes: 1_000_000, maxEntries: 100), l2: try FileDatastore(directory: folder.store),
            logger: DatastoreTestFixtures.LogRecorder())
    }

    @Test func promotedEntryInPlace_ReadsTheDiskEntry_AndKeepsItInMemory() async throws {
        let folder = try DatastoreTestFixtures.Folder()
        let store = try Self.makeStore(in: folder)
        try await store.l2.save(DatastoreTestFixtures.entry("from disk"), for: "k")
        #expect(store.peek("k") == nil)
        #expect(store.promotedEntryInPlace(for: "k") { $0.entryInPlace(for: "k") }?.value == "from disk")
        #expect(store.peek("k")?.value == "from disk")
    }

    @Test func promotedEntryInPlace_IsNil_ForAKeyNoLevelHolds_AndKeepsNothing() throws {
        let folder = try DatastoreTestFixtures.Folder()
        let store = try Self.makeStore(in: folder)
        #expect(store.promotedEntryInPlace(for: "k") { $0.entryInPlace(for: "k") } == nil)
        #expect(store.l1.statistics.entries == 0)
    }

    @Test func promotedEntryInPlace_AnswersARenewalNotWrittenYet() async throws {
        let folder = try DatastoreTestFixtures.Folder()
        let store = try Self.makeStore(in: folder)
        // A renewal in L2 only, not written yet: what the disk level answers for the key.
        try await store.l2.renew(DatastoreTestFixtures.entry("renewed"), for: "k")
        #expect(store.promotedEntryInPlace(for: "k") { $0.entryInPlace(for: "k") }?.value == "renewed")
        #expect(store.peek("k")?.value == "renewed")
        await store.l2.finishWrites()
    }

    @Test func promotedEntryInPlace_ReadsTheDiskLevelOfANestedChain_WithoutAskingTheLevelBehindIt() async throws {
        let folder = try DatastoreTestFixtures.Folder()
        let shared = DatastoreTestFixtures.ScriptedDatastore()
        let logger = DatastoreTestFixtures.LogRecorder()
        let lower = TwoLevelDatastore(l1: try FileDatastore<String, String>(directory: folder.store), l2: shared, logger: logger)
        let store = TwoLevelDatastore(l1: MemoryDatastore<String, String>(maxBytes: 1_000_000, maxEntries: 100), l2: lower, logger: logger)
        try await lower.l1.save(DatastoreTestFixtures.entry("from disk"), for: "k")
        #expect(store.promotedEntryInPlace(for: "k") { $0.l1.entryInPlace(for: "k") }?.value == "from disk")
        #expect(store.peek("k")?.value == "from disk")
        #expect(shared.calls.isEmpty)
    }

    @Test func renewInPlace_RenewsBothLevels_TheDiskWritingBehind() async throws {
        let folder = try DatastoreTestFixtures.Folder()
        let store = try Self.makeStore(in: folder)
        try await store.save(DatastoreTestFixtures.entry("old"), for: "k")

        let renewed = store.renewInPlace(DatastoreTestFixtures.entry("renewed"), for: "k") {
            $0.renewInPlace(DatastoreTestFixtures.entry("renewed"), for: "k")
        }
        await store.l2.finishWrites()

        #expect(renewed)
        #expect(store.peek("k")?.value == "renewed")
        #expect(try await FileDatastore<String, String>(directory: folder.store).get("k")?.value == "renewed")
    }

    @Test func renewInPlace_LeavesBothLevels_WhenTheSecondCannot() async throws {
        let folder = try DatastoreTestFixtures.Folder()
        let store = TwoLevelDatastore(
            l1: MemoryDatastore<String, String>(maxBytes: 1_000_000, maxEntries: 100),
            l2: try FileDatastore<String, String>(directory: folder.store, maxPendingRenewals: 0),
            logger: DatastoreTestFixtures.LogRecorder())
        try await store.save(DatastoreTestFixtures.entry("old"), for: "k")

        let renewed = store.renewInPlace(DatastoreTestFixtures.entry("renewed"), for: "k") {
            $0.renewInPlace(DatastoreTestFixtures.entry("renewed"), for: "k")
        }

        #expect(!renewed)
        #expect(store.peek("k")?.value == "old")
        #expect(try await store.l2.get("k")?.value == "old")
    }
}
