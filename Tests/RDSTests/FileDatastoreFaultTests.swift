import Foundation
import Testing

@testable import RDS

/// What ``FileDatastore`` does with a folder that changes behind its back: leftovers of a killed
/// process, planted or foreign files, a removed folder, a folder that is no longer one.
@Suite(.timeLimit(.minutes(1)))
struct FileDatastoreFaultTests {
    private typealias Store = FileDatastore<String, String>

    private typealias Folder = DatastoreTestFixtures.Folder

    @Test func init_RemovesOrphanTemporaryFilesHardLinksAndEverythingElseThatIsNotAnEntry() async throws {
        let folder = try Folder()
        let name = try await folder.save("v", for: "k", in: try Store(directory: folder.store))
        let manager = FileManager.default
        try Data(count: 5_000).write(to: folder.store.appendingPathComponent(".\(name).1f2e3d.tmp"))
        try Data("foreign".utf8).write(to: folder.store.appendingPathComponent("notes.txt"))
        let planted = folder.store.appendingPathComponent("00ff.entry", isDirectory: true)
        try manager.createDirectory(at: planted, withIntermediateDirectories: false)
        try Data("inside".utf8).write(to: planted.appendingPathComponent("inner"))
        let outside = folder.url.appendingPathComponent("outside.txt")
        try Data("outside".utf8).write(to: outside)
        try manager.linkItem(at: outside, to: folder.store.appendingPathComponent("00aa.entry"))

        let store = try Store(directory: folder.store)

        #expect(try folder.names() == [name])
        #expect(store.statistics == DatastoreStatistics(entries: 1, bytes: try folder.size(name), evictions: 0))
        #expect(try await store.get("k")?.value == "v")
        #expect(try Data(contentsOf: outside) == Data("outside".utf8))
    }

    @Test func get_AndSave_ReplaceAFolderNamedLikeTheEntry_InsteadOfFailingForever() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        let name = try await folder.save("v", for: "k", in: store)
        try await store.delete("k")
        let planted = folder.store.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: false)
        try Data("inside".utf8).write(to: planted.appendingPathComponent("inner"))

        #expect(try await store.get("k") == nil)
        #expect(try folder.names().isEmpty)
        try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: false)
        try await Self.expectSavedAgain(in: store, folder: folder, name: name)
    }

    /// Saves "again" for "k" (whose file is `name`) and expects it read back, as the only file counted.
    private static func expectSavedAgain(in store: Store, folder: Folder, name: String) async throws {
        try await store.save(DatastoreTestFixtures.entry("again"), for: "k")
        #expect(try await store.get("k")?.value == "again")
        #expect(store.statistics == DatastoreStatistics(entries: 1, bytes: try folder.size(name), evictions: 0))
    }

    /// Opening a named pipe would wait for the other end forever.
    @Test func get_AndSave_DropANamedPipeNamedLikeTheEntry_WithoutWaiting() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        let name = try await folder.save("v", for: "k", in: store)
        try await store.delete("k")
        #expect(mkfifo(folder.store.appendingPathComponent(name).path, 0o600) == 0)

        #expect(try await store.get("k") == nil)

        #expect(try folder.names().isEmpty)
        #expect(store.statistics == DatastoreStatistics(entries: 0, bytes: 0, evictions: 0))
        #expect(mkfifo(folder.store.appendingPathComponent(name).path, 0o600) == 0)
        try await Self.expectSavedAgain(in: store, folder: folder, name: name)
    }

    /// A save rewrites the file in place: it must never write through a link to somewhere else.
    @Test(arguments: ["symbolic", "hard"])
    func save_ReplacesALinkNamedLikeTheEntry_LeavingItsTargetAlone(link: String) async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        let name = try await folder.save("v", for: "k", in: store)
        try await store.delete("k")
        let target = folder.url.appendingPathComponent("outside.txt")
        try Data("outside".utf8).write(to: target)
        let planted = folder.store.appendingPathComponent(name)
        if link == "hard" {
            try FileManager.default.linkItem(at: target, to: planted)
        } else {
            try FileManager.default.createSymbolicLink(at: planted, withDestinationURL: target)
        }

        try await Self.expectSavedAgain(in: store, folder: folder, name: name)

        #expect(try Data(contentsOf: target) == Data("outside".utf8))
    }

    /// A sparse 64 GiB file: reading it whole would need 64 GiB of memory.
    @Test func get_DropsAFileLargerThanTheLargestEntry_WithoutReadingIt() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store, maxBytes: 1 << 20)
        let name = try await folder.save("v", for: "k", in: store)
        #expect(truncate(folder.store.appendingPathComponent(name).path, 64 << 30) == 0)

        #expect(try await store.get("k") == nil)

        #expect(try folder.names().isEmpty)
        #expect(store.statistics == DatastoreStatistics(entries: 0, bytes: 0, evictions: 0))
    }

    @Test func get_DropsAFileLongerThanItsHeaderAnnounces() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        let name = try await folder.save("v", for: "k", in: store)
        let handle = try FileHandle(forWritingTo: folder.store.appendingPathComponent(name))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(count: 4_096))
        try handle.close()

        #expect(try await store.get("k") == nil)

        #expect(try folder.names().isEmpty)
        #expect(store.statistics == DatastoreStatistics(entries: 0, bytes: 0, evictions: 0))
    }

    @Test func save_RecreatesARemovedFolder_AndCountsOnlyWhatIsInIt() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        for key in ["a", "b"] { _ = try await folder.save(key, for: key, in: store) }
        try FileManager.default.removeItem(at: folder.store)

        let name = try await folder.save("c", for: "c", in: store)

        #expect(try folder.names() == [name])
        #expect(store.statistics == DatastoreStatistics(entries: 1, bytes: try folder.size(name), evictions: 0))
        #expect(try await store.get("c")?.value == "c")
        #expect(try await store.get("a") == nil)
    }

    @Test func save_MarksTheLevelDegraded_UntilAWriteSucceedsAgain() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        try FileManager.default.removeItem(at: folder.store)
        try Data("in the way".utf8).write(to: folder.store)

        await #expect(throws: DatastoreError.self) { try await store.save(DatastoreTestFixtures.entry("v"), for: "k") }
        await #expect(throws: DatastoreError.self) { try await store.save(DatastoreTestFixtures.entry("v"), for: "k") }
        let degraded = store.statistics
        try FileManager.default.removeItem(at: folder.store)
        try await store.save(DatastoreTestFixtures.entry("v"), for: "k")

        #expect(degraded.isDegraded)
        #expect(degraded.writeFailures == 2)
        #expect(degraded.lastWriteFailure?.code == DatastoreErrorKind.writeFailed.rawValue)
        #expect(degraded.lastWriteFailure?.message.hasSuffix("Not a directory") == true)
        #expect(degraded.lastWriteFailure?.message.contains(folder.url.path) == false)
        #expect(!store.statistics.isDegraded)
        #expect(store.statistics.writeFailures == 2)
        #expect(try await store.get("k")?.value == "v")
    }

    /// Six tasks saving and deleting overlapping keys of `store` (all entries of one size).
    private static func churn(_ store: Store) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<6 {
                group.addTask {
                    for index in 0..<40 {
                        try await store.save(DatastoreTestFixtures.entry("v"), for: "\(task)-\(index % 15 + 10)")
                        if index % 7 == 0 { try await store.delete("\((task + 1) % 6)-\(index % 15 + 10)") }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func statistics_EqualAFreshScan_AfterConcurrentSavesDeletesEvictionsAndARemovedFolder() async throws {
        let folder = try Folder()
        let size = try await folder.size(folder.save("v", for: "p-99", in: try Store(directory: folder.store)))
        let store = try Store(directory: folder.store, maxBytes: size * 10)

        try await Self.churn(store)
        let names = try folder.names()
        let afterChurn = store.statistics
        try FileManager.default.removeItem(at: folder.store)
        try await Self.churn(store)
        let namesAfterRemoval = try folder.names()

        #expect(names.allSatisfy { $0.hasSuffix(".entry") })
        #expect(afterChurn.entries == names.count)
        #expect(afterChurn.bytes == names.count * size)
        #expect(afterChurn.bytes <= size * 10)
        #expect(afterChurn.evictions > 0)
        #expect(store.statistics.entries == namesAfterRemoval.count)
        #expect(store.statistics.bytes == namesAfterRemoval.count * size)
        #expect(!store.statistics.isDegraded)
    }
}
