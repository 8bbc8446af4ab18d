import Foundation
import Testing

@testable import RDS

struct FileDatastoreBudgetTests {
    private typealias Store = FileDatastore<String, String>

    private static let value = String(repeating: "v", count: 500)

    /// Saves `key` and returns the path of the file it created, dated `daysAfter2000` days after 2000-01-01.
    private static func save(_ key: String, in store: Store, daysAfter2000: Double) async throws -> String {
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: store.directory.path))
        try await store.save(DatastoreTestFixtures.entry(value), for: key)
        let created = Set(try FileManager.default.contentsOfDirectory(atPath: store.directory.path)).subtracting(before)
        let path = store.directory.appendingPathComponent(try #require(created.first)).path
        let date = Date(timeIntervalSince1970: 946_684_800 + daysAfter2000 * 86_400)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
        return path
    }

    private static func fileSize(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    private static func present(_ keys: [String], in store: Store) async throws -> [String] {
        var found: [String] = []
        for key in keys where try await store.get(key) != nil { found.append(key) }
        return found
    }

    /// A store in `folder/bounded` whose `maxBytes` holds three and a half entry files.
    private static func makeStoreForThreeAndAHalfEntries(in folder: URL) async throws -> Store {
        let probe = try Store(directory: folder.appendingPathComponent("probe"))
        let size = try fileSize(try await save("k0", in: probe, daysAfter2000: 0))
        return try Store(directory: folder.appendingPathComponent("bounded"), maxBytes: size * 7 / 2)
    }

    @Test func save_RemovesTheLeastRecentlyWrittenFiles_WhenMaxBytesIsExceeded() async throws {
        let folder = try DatastoreTestFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Self.makeStoreForThreeAndAHalfEntries(in: folder)
        _ = try await Self.save("k1", in: store, daysAfter2000: 2)
        _ = try await Self.save("k0", in: store, daysAfter2000: 1)
        _ = try await Self.save("k2", in: store, daysAfter2000: 3)
        #expect(try await Self.present(["k0", "k1", "k2"], in: store) == ["k0", "k1", "k2"])

        try await store.save(DatastoreTestFixtures.entry(Self.value), for: "k3")
        #expect(try await Self.present(["k0", "k1", "k2", "k3"], in: store) == ["k1", "k2", "k3"])
    }

    @Test func init_CountsTheFilesAlreadyInTheFolder() async throws {
        let folder = try DatastoreTestFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let unbounded = try Store(directory: folder)
        var size = 0
        for (day, key) in ["k0", "k1", "k2"].enumerated() {
            size = try Self.fileSize(try await Self.save(key, in: unbounded, daysAfter2000: Double(day)))
        }
        let bounded = try Store(directory: folder, maxBytes: size * 7 / 2)
        try await bounded.save(DatastoreTestFixtures.entry(Self.value), for: "k3")
        #expect(try await Self.present(["k0", "k1", "k2", "k3"], in: bounded) == ["k1", "k2", "k3"])
    }

    @Test func save_DoesNotEvict_WhenDeletesAndOverwritesKeepTheFilesWithinMaxBytes() async throws {
        let folder = try DatastoreTestFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Self.makeStoreForThreeAndAHalfEntries(in: folder)
        try Data(count: 100_000).write(to: store.directory.appendingPathComponent("foreign.bin"))
        for (day, key) in ["k0", "k1", "k2"].enumerated() {
            _ = try await Self.save(key, in: store, daysAfter2000: Double(day))
        }
        try await store.save(DatastoreTestFixtures.entry(Self.value), for: "k1")
        try await store.delete("k2")
        try await store.save(DatastoreTestFixtures.entry(Self.value), for: "k3")
        #expect(try await Self.present(["k0", "k1", "k2", "k3"], in: store) == ["k0", "k1", "k3"])
        #expect(FileManager.default.fileExists(atPath: store.directory.appendingPathComponent("foreign.bin").path))
    }

    @Test func diskBudget_AsksForOneEvictionAtATime_WhichGoesOnWhileSavesKeepTheFilesPastTheBound() {
        let budget = DiskBudget(maxBytes: 1_000, usedBytes: 900)
        #expect(budget.targetBytes == 900)
        #expect(!budget.recordWrite(100))
        #expect(budget.recordWrite(50))
        #expect(!budget.recordWrite(10))
        budget.recordRemoval(500)
        #expect(!budget.finishEviction(evicted: 1))
        budget.recordRemoval(50)
        #expect(budget.usedBytes == 510)
        #expect(!budget.recordWrite(1))
        #expect(budget.recordWrite(600))
        // Saves during the pass took the files past maxBytes again: the eviction goes on.
        #expect(budget.finishEviction(evicted: 3))
        #expect(!budget.recordWrite(1))
        budget.recordRemoval(400)
        #expect(!budget.finishEviction(evicted: 1))
        #expect(budget.statistics.evictions == 5)
        budget.reset()
        #expect(budget.usedBytes == 0)
    }
}

extension FileDatastoreBudgetTests {
    @Test func statistics_FollowSavesDeletesCorruptFilesAndEvictions_AndAreCountedAtOpening() async throws {
        let folder = try DatastoreTestFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Store(directory: folder)
        #expect(store.statistics == DatastoreStatistics(entries: 0, bytes: 0, evictions: 0))
        var paths: [String] = []
        for (day, key) in ["k0", "k1", "k2"].enumerated() {
            paths.append(try await Self.save(key, in: store, daysAfter2000: Double(day)))
        }
        let size = try Self.fileSize(paths[0])
        #expect(store.statistics == DatastoreStatistics(entries: 3, bytes: 3 * size, evictions: 0))

        try await store.save(DatastoreTestFixtures.entry(Self.value), for: "k1")
        try await store.delete("k2")
        try await store.delete("k2")
        #expect(store.statistics == DatastoreStatistics(entries: 2, bytes: 2 * size, evictions: 0))

        var corrupted = try Data(contentsOf: URL(fileURLWithPath: paths[0]))
        corrupted[corrupted.count - 1] ^= 0xFF
        try corrupted.write(to: URL(fileURLWithPath: paths[0]))
        #expect(try await store.get("k0") == nil)
        #expect(store.statistics == DatastoreStatistics(entries: 1, bytes: size, evictions: 0))

        let reopened = try Store(directory: folder, maxBytes: size * 7 / 2)
        #expect(reopened.statistics == DatastoreStatistics(entries: 1, bytes: size, evictions: 0))
        for key in ["k3", "k4", "k5"] { try await reopened.save(DatastoreTestFixtures.entry(Self.value), for: key) }
        #expect(reopened.statistics == DatastoreStatistics(entries: 3, bytes: 3 * size, evictions: 1))

        try await reopened.deleteAll()
        #expect(reopened.statistics == DatastoreStatistics(entries: 0, bytes: 0, evictions: 1))
    }
}
