import Foundation
import RDS
import Testing

struct TwoLevelDatastoreTests {
    private typealias Memory = MemoryDatastore<String, String>
    private typealias Scripted = DatastoreTestFixtures.ScriptedDatastore
    private typealias Events = DatastoreTestFixtures.LogRecorder

    private static func makeStore(
        _ l2: Scripted = Scripted(), logger: Events = Events()
    ) -> TwoLevelDatastore<Memory, Scripted> {
        TwoLevelDatastore(l1: Memory(maxBytes: 1_000_000, maxEntries: 100), l2: l2, logger: logger)
    }

    @Test func get_PromotesASecondLevelHitIntoTheFirstLevel() async throws {
        let l2 = Scripted()
        l2.store(DatastoreTestFixtures.entry("from disk"), for: "k")
        let store = Self.makeStore(l2)
        #expect(store.peek("k") == nil)
        #expect(try await store.get("k")?.value == "from disk")
        #expect(store.peek("k")?.value == "from disk")
        #expect(try await store.get("k")?.value == "from disk")
        #expect(l2.calls == ["get k"])
    }

    @Test func get_ReturnsNil_WhenNeitherLevelHasTheKey() async throws {
        let l2 = Scripted()
        let store = Self.makeStore(l2)
        #expect(try await store.get("k") == nil)
        #expect(store.l1.statistics.entries == 0)
    }

    @Test func save_WritesBothLevels() async throws {
        let l2 = Scripted()
        let store = Self.makeStore(l2)
        try await store.save(DatastoreTestFixtures.entry("v"), for: "k")
        #expect(store.peek("k")?.value == "v")
        #expect(l2.stored("k")?.value == "v")
    }

    @Test func save_ThrowsSecondLevelFailed_AndKeepsTheFirstLevelValue_WhenTheSecondLevelFails() async throws {
        let l2 = Scripted()
        let logger = Events()
        l2.store(DatastoreTestFixtures.entry("older"), for: "k")
        l2.fail("save")
        let store = Self.makeStore(l2, logger: logger)
        let error = await #expect(throws: DatastoreError.self) {
            try await store.save(DatastoreTestFixtures.entry("newer"), for: "k")
        }
        #expect(error?.kind == .secondLevelFailed)
        #expect((error?.inner as? any ChainedError)?.code == "scripted_failure")
        #expect(store.peek("k")?.value == "newer")
        #expect(l2.stored("k") == nil)
        #expect(logger.events.map(\.name) == ["datastore_l2_write_failed"])
        #expect(logger.events.first?.fields["error"] == "scripted_failure")
    }

    @Test func renew_RenewsBothLevels_AndDropsTheSecondLevelsOlderEntry_WhenItFails() async throws {
        let l2 = Scripted()
        let store = Self.makeStore(l2)
        try await store.renew(DatastoreTestFixtures.entry("renewed"), for: "k")
        l2.fail("renew")

        let error = await #expect(throws: DatastoreError.self) {
            try await store.renew(DatastoreTestFixtures.entry("renewed again"), for: "k")
        }

        #expect(l2.calls == ["renew k", "renew k", "delete k"])
        #expect(error?.kind == .secondLevelFailed)
        #expect(store.peek("k")?.value == "renewed again")
        #expect(l2.stored("k") == nil)
    }

    @Test func save_ThrowsSecondLevelFailed_WhenTheDiskFolderIsUnusable() async throws {
        let folder = try DatastoreTestFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = folder.appendingPathComponent("disk")
        let store = TwoLevelDatastore(
            l1: Memory(maxBytes: 1_000_000, maxEntries: 100), l2: try FileDatastore<String, String>(directory: disk),
            logger: Events())
        try FileManager.default.removeItem(at: disk)
        try Data("a file where the folder was".utf8).write(to: disk)

        let error = await #expect(throws: DatastoreError.self) {
            try await store.save(DatastoreTestFixtures.entry("kept in memory"), for: "k")
        }
        #expect(error?.kind == .secondLevelFailed)
        #expect((error?.inner as? DatastoreError)?.kind == .writeFailed)
        #expect(try await store.get("k")?.value == "kept in memory")
    }

    @Test func get_ThrowsSecondLevelFailed_WhenTheSecondLevelCannotBeRead() async throws {
        let l2 = Scripted()
        l2.fail("get")
        let logger = Events()
        let store = Self.makeStore(l2, logger: logger)
        let error = await #expect(throws: DatastoreError.self) { try await store.get("k") }
        #expect(error?.kind == .secondLevelFailed)
        #expect(logger.events.map(\.name) == ["datastore_l2_read_failed"])
    }

    @Test func get_DoesNotPromoteAnOlderValue_WhenAWriteRacesWithTheSecondLevelRead() async throws {
        let (gate, openGate) = AsyncStream.makeStream(of: Void.self)
        let l2 = Scripted(getGate: gate)
        l2.store(DatastoreTestFixtures.entry("old"), for: "k")
        let store = Self.makeStore(l2)
        var started = l2.getStarted.makeAsyncIterator()

        let reader = Task { try await store.get("k") }
        _ = await started.next()
        try await store.save(DatastoreTestFixtures.entry("new"), for: "k")
        openGate.yield()

        #expect(try await reader.value?.value == "old")
        #expect(store.peek("k")?.value == "new")
        #expect(try await store.get("k")?.value == "new")
    }

    @Test func get_DoesNotPromoteAnOlderValue_WhileAWriteToTheSecondLevelIsUnderWay() async throws {
        let (gate, openGate) = AsyncStream.makeStream(of: Void.self)
        let l2 = Scripted(saveGate: gate)
        l2.store(DatastoreTestFixtures.entry("old"), for: "k")
        let store = TwoLevelDatastore(l1: Memory(maxBytes: 1_000_000, maxEntries: 1), l2: l2, logger: Events())
        var saveStarted = l2.saveStarted.makeAsyncIterator()

        let writer = Task { try await store.save(DatastoreTestFixtures.entry("new"), for: "k") }
        _ = await saveStarted.next()
        await store.l1.save(DatastoreTestFixtures.entry("other"), for: "evicts k from L1")
        #expect(try await store.get("k")?.value == "old")
        #expect(store.peek("k") == nil)

        openGate.yield()
        try await writer.value
        #expect(try await store.get("k")?.value == "new")
        #expect(store.peek("k")?.value == "new")
    }

    @Test func delete_RemovesTheKeyFromBothLevels() async throws {
        let l2 = Scripted()
        let store = Self.makeStore(l2)
        try await store.save(DatastoreTestFixtures.entry("a"), for: "a")
        try await store.save(DatastoreTestFixtures.entry("b"), for: "b")
        try await store.delete("a")
        #expect(store.peek("a") == nil)
        #expect(l2.stored("a") == nil)
        #expect(try await store.get("a") == nil)
        #expect(try await store.get("b")?.value == "b")
    }

    @Test func deleteAll_EmptiesBothLevels() async throws {
        let l2 = Scripted()
        let store = Self.makeStore(l2)
        for key in ["a", "b"] { try await store.save(DatastoreTestFixtures.entry(key), for: key) }
        try await store.deleteAll()
        #expect(store.l1.statistics.entries == 0)
        #expect(l2.stored("a") == nil && l2.stored("b") == nil)
    }

    @Test func delete_ThrowsSecondLevelFailed_AfterRemovingTheFirstLevelEntry() async throws {
        let l2 = Scripted()
        let store = Self.makeStore(l2)
        try await store.save(DatastoreTestFixtures.entry("v"), for: "k")
        l2.fail("delete")
        l2.fail("deleteAll")
        let error = await #expect(throws: DatastoreError.self) { try await store.delete("k") }
        #expect(error?.kind == .secondLevelFailed)
        #expect(store.peek("k") == nil)
        let allError = await #expect(throws: DatastoreError.self) { try await store.deleteAll() }
        #expect(allError?.kind == .secondLevelFailed)
    }

    @Test func get_ReadsWhatAnEarlierProcessLeftOnDisk() async throws {
        let folder = try DatastoreTestFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        func makeStore() throws -> TwoLevelDatastore<Memory, FileDatastore<String, String>> {
            TwoLevelDatastore(
                l1: Memory(maxBytes: 1_000_000, maxEntries: 100), l2: try FileDatastore(directory: folder),
                logger: Events())
        }
        try await makeStore().save(DatastoreTestFixtures.entry("persisted"), for: "k")
        let restarted = try makeStore()
        #expect(restarted.peek("k") == nil)
        #expect(try await restarted.get("k")?.value == "persisted")
        #expect(restarted.peek("k")?.value == "persisted")
    }
}
