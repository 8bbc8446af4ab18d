import Foundation
import Testing

@testable import RDS

struct FileDatastoreTests {
    private typealias Store = FileDatastore<String, String>

    private typealias Folder = DatastoreTestFixtures.Folder

    private static let fullEntry = CacheEntry(
        value: "{\"temp\":21}", storedAt: Date(timeIntervalSince1970: 1_767_225_600.123_456),
        expiresAt: Date(timeIntervalSince1970: 1_767_225_660.5),
        validators: Validators(etag: "\"v1\"", lastModified: "Thu, 01 Jan 2026 00:00:00 GMT"), initialAge: 7.5,
        mustRevalidate: true)

    @Test func get_ReturnsEveryFieldSaved_AndNilForAnUnknownKey() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        try await store.save(Self.fullEntry, for: "weather/london")
        #expect(try await store.get("weather/london") == Self.fullEntry)
        #expect(try await store.get("weather/paris") == nil)
    }

    @Test func get_ReadsEntriesWrittenByAnotherInstance() async throws {
        let folder = try Folder()
        try await Store(directory: folder.store).save(Self.fullEntry, for: "k")
        #expect(try await Store(directory: folder.store).get("k") == Self.fullEntry)
    }

    @Test func save_NamesTheFileBySHA256OfTheKeyBytes() async throws {
        let folder = try Folder()
        try await Store(directory: folder.store).save(DatastoreTestFixtures.entry("v"), for: "weather/london")
        #expect(try folder.names() == ["7351393260ab0b8bd7b7c4d9cd3cbdc6e548266a2d8f0e028c11b2855c363f14.entry"])
    }

    @Test func save_ReplacesThePreviousEntry_AndLeavesNoTemporaryFile() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        try await store.save(DatastoreTestFixtures.entry("old"), for: "k")
        try await store.save(DatastoreTestFixtures.entry("new"), for: "k")
        #expect(try await store.get("k")?.value == "new")
        #expect(try folder.names().count == 1)
    }

    @Test(arguments: [
        ("/etc/passwd", "slash"), ("../../../escape", "dot-dot"), ("a\u{0}b", "NUL"), ("Zürich 東京 🌧️", "unicode"),
        (String(repeating: "0123456789", count: 1_024), "10 KB"), ("", "empty"), (".", "dot"),
    ])
    func save_KeepsAnyKeyInsideTheFolder(key: String, label: String) async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        try await store.save(DatastoreTestFixtures.entry(label), for: key)
        #expect(try await store.get(key)?.value == label)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["store"])
        let names = try folder.names()
        #expect(names.count == 1)
        #expect(names.allSatisfy { $0.count == 64 + ".entry".count && Store.isEntryFileName($0) })
        try await store.delete(key)
        #expect(try await store.get(key) == nil)
        #expect(try folder.names().isEmpty)
    }

    @Test(arguments: ["corrupt", "truncated", "foreign", "empty", "version"])
    func get_ReturnsMissAndRemovesTheFile_WhenTheFileIsUnusable(damage: String) async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        try await store.save(DatastoreTestFixtures.entry(String(repeating: "x", count: 200)), for: "k")
        let file = try folder.entryFile()
        var bytes = try [UInt8](Data(contentsOf: file))
        switch damage {
        case "corrupt": bytes[bytes.count / 2] ^= 0x01
        case "truncated": bytes.removeLast(10)
        case "foreign": bytes = Array("<html>not an entry</html>".utf8)
        case "empty": bytes = []
        default:
            bytes[4] = 9
            bytes.removeLast(FileEntryFormat.checksumSize)
            FileEntryFormat.appendChecksum(to: &bytes)
        }
        try Data(bytes).write(to: file)
        #expect(try await store.get("k") == nil)
        #expect(try folder.names().isEmpty)
    }

    @Test func get_ReturnsMissAndRemovesTheFile_WhenTheValueCannotBeDecoded() async throws {
        let folder = try Folder()
        try await FileDatastore<String, [UInt8]>(directory: folder.store).save(
            DatastoreTestFixtures.entry([0xFF, 0xFE]), for: "k")
        #expect(try await Store(directory: folder.store).get("k") == nil)
        #expect(try folder.names().isEmpty)
    }

    @Test func get_NeverReturnsAnotherKeysValue_WhenFileNamesCollide() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store, hash: { _ in [0xAB, 0xCD] })
        try await store.save(DatastoreTestFixtures.entry("value of a"), for: "a")
        #expect(try await store.get("b") == nil)
        #expect(try await store.get("a")?.value == "value of a")

        try await store.save(DatastoreTestFixtures.entry("value of b"), for: "b")
        #expect(try await store.get("a") == nil)
        #expect(try await store.get("b")?.value == "value of b")
        #expect(try folder.names() == ["abcd.entry"])
    }

    @Test(arguments: [("grows", 300, 3_000), ("shrinks", 3_000, 300), ("keeps its size", 1_000, 1_000)])
    func save_RewritesTheFileInPlace_WithExactlyTheNewEntry(change: String, before: Int, after: Int) async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        let old = String(repeating: "o", count: before)
        let new = String(repeating: "n", count: after)
        try await store.save(DatastoreTestFixtures.entry(old), for: "k")
        let file = try folder.entryFile()
        let inode = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int

        try await store.save(DatastoreTestFixtures.entry(new, ttl: 120), for: "k")

        let expected = FileEntryFormat.encode(
            DatastoreTestFixtures.entry(Array(new.utf8), ttl: 120), keyBytes: Array("k".utf8))
        #expect(try [UInt8](Data(contentsOf: file)) == expected)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int == inode)
        #expect(try await store.get("k") == DatastoreTestFixtures.entry(new, ttl: 120))
        #expect(store.statistics == DatastoreStatistics(entries: 1, bytes: expected.count, evictions: 0))
    }

    /// What a process killed in the middle of rewriting a file leaves (then restarted): the new
    /// entry's start over the old one's bytes, or the new entry cut short.
    @Test(arguments: ["new start, old rest", "cut mid-body"])
    func get_ReturnsMissAndRemovesTheFile_WhenASaveWasTorn(tear: String) async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        try await store.save(DatastoreTestFixtures.entry(String(repeating: "o", count: 2_000)), for: "k")
        let file = try folder.entryFile()
        let new = FileEntryFormat.encode(
            DatastoreTestFixtures.entry(Array(String(repeating: "n", count: 2_000).utf8)), keyBytes: Array("k".utf8))
        let handle = try FileHandle(forWritingTo: file)
        switch tear {
        case "new start, old rest": try handle.write(contentsOf: new.prefix(1_000))
        default:
            try handle.write(contentsOf: new)
            try handle.truncate(atOffset: UInt64(new.count / 2))
        }
        try handle.close()
        let restarted = try Store(directory: folder.store)

        #expect(try await restarted.get("k") == nil)

        #expect(try folder.names().isEmpty)
        #expect(restarted.statistics == DatastoreStatistics(entries: 0, bytes: 0, evictions: 0))
        try await restarted.save(DatastoreTestFixtures.entry("again"), for: "k")
        #expect(try await restarted.get("k")?.value == "again")
    }

    @Test func get_SeesWholeEntriesOnly_WhileOtherTasksOverwriteTheKey() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        let values = ["A", "B", "C"].map { String(repeating: $0, count: 4_000) }
        try await store.save(DatastoreTestFixtures.entry(values[0]), for: "hot")
        let reads = try await withThrowingTaskGroup(of: [String?].self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for round in 0..<25 {
                        try await store.save(DatastoreTestFixtures.entry(values[(writer + round) % 3]), for: "hot")
                    }
                    return []
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    var seen: [String?] = []
                    for _ in 0..<25 { seen.append(try await store.get("hot")?.value) }
                    return seen
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(reads.count == 100)
        #expect(reads.allSatisfy { read in read.map(values.contains) == true })
        #expect(try folder.names().count == 1)
    }

    @Test func save_KeepsEveryKey_WhenManyTasksWriteAtOnce() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<25 {
                        try await store.save(DatastoreTestFixtures.entry("\(task)-\(index)"), for: "\(task)/\(index)")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try folder.names().count == 200)
        for task in 0..<8 {
            for index in 0..<25 { #expect(try await store.get("\(task)/\(index)")?.value == "\(task)-\(index)") }
        }
    }

    @Test func deleteAll_RemovesOnlyTheDatastoresFiles() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        for key in ["a", "b", "c"] { try await store.save(DatastoreTestFixtures.entry(key), for: key) }
        try Data("keep me".utf8).write(to: folder.store.appendingPathComponent("notes.txt"))
        try await store.deleteAll()
        #expect(try folder.names() == ["notes.txt"])
        #expect(try await store.get("a") == nil)
    }

    /// The failure names the key's file (a hash, nothing of the key) in its details.
    @Test func save_ThrowsWriteFailed_WhenTheFolderIsNoLongerAFolder() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        try FileManager.default.removeItem(at: folder.store)
        try Data("in the way".utf8).write(to: folder.store)
        let error = await #expect(throws: DatastoreError.self) {
            try await store.save(DatastoreTestFixtures.entry("v"), for: "weather/london")
        }
        #expect(error?.kind == .writeFailed)
        #expect((error?.inner as? any ChainedError)?.code == "file_system_error")
        #expect(error?.details["file"] == "7351393260ab0b8bd7b7c4d9cd3cbdc6e548266a2d8f0e028c11b2855c363f14.entry")
        let readError = await #expect(throws: DatastoreError.self) { try await store.get("weather/london") }
        #expect(readError?.kind == .readFailed)
    }

    @Test func init_ThrowsWriteFailed_WhenTheFolderCannotBeCreated() throws {
        let folder = try Folder()
        try Data("a file".utf8).write(to: folder.store)
        let error = #expect(throws: DatastoreError.self) {
            try Store(directory: folder.store.appendingPathComponent("inner"))
        }
        #expect(error?.kind == .writeFailed)
    }
}
