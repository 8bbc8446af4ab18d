import Foundation
import Testing

@testable import RDS

#if canImport(Glibc)
    import Glibc
#endif

/// Reading an entry leaves its file's access time alone (`O_NOATIME`): on a `relatime` file system
/// the first read after each write would otherwise write the inode.
@Suite(.enabled(if: accessTimesAreRecorded, "the temporary folder's file system records no access times"))
struct FileDatastoreAccessTimeTests {
    private typealias Store = FileDatastore<String, String>

    @Test func get_InPlace_LeavesTheAccessTime() async throws {
        let (folder, store, path, before) = try await Self.entryReadLongAgo()
        #expect(try await store.get("k")?.value == "v1")
        #expect(store.changesInFlight.readsInPlace == 1)
        #expect(try Self.accessTime(path) == before)
        _ = folder
    }

    @Test func readEntryFile_OnTheQueue_LeavesTheAccessTime() async throws {
        let (folder, _, path, before) = try await Self.entryReadLongAgo()
        // A header check that fails after the whole (small) file was read.
        let read = try BlockingFileIO.readEntryFile(at: path, maxSize: 1 << 20, headerSize: 1) { _ in nil }
        #expect({ if case .unusable(size: _?) = read { true } else { false } }())
        #expect(try Self.accessTime(path) == before)
        _ = folder
    }

    /// A datastore in a new folder (kept while the test holds it) with "v1" saved for "k", whose
    /// file's access time was set back two days: its path and that access time.
    private static func entryReadLongAgo() async throws -> (DatastoreTestFixtures.Folder, Store, String, Int) {
        let folder = try DatastoreTestFixtures.Folder()
        let store = try Store(directory: folder.store)
        try await store.save(DatastoreTestFixtures.entry("v1"), for: "k")
        let path = try store.location(of: "k").path
        try setAccessTimeToTwoDaysAgo(path)
        return (folder, store, path, try accessTime(path))
    }

    /// Sets the access time of the file at `path` two days back and its modification time one day
    /// back: a `relatime` file system gives it a new access time at its next read.
    fileprivate static func setAccessTimeToTwoDaysAgo(_ path: String) throws {
        let now = time(nil)
        var times = [timespec(tv_sec: now - 2 * 86_400, tv_nsec: 0), timespec(tv_sec: now - 86_400, tv_nsec: 0)]
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw FileSystemError.current("utimensat") }
    }

    /// The access time of the file at `path`, in nanoseconds.
    fileprivate static func accessTime(_ path: String) throws -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else { throw FileSystemError.current("stat") }
        return status.st_atim.tv_sec * 1_000_000_000 + status.st_atim.tv_nsec
    }
}

/// Whether a plain read of a file in a temporary folder, whose access time is older than its last
/// change, gives it a new access time (so that the tests above can fail).
private let accessTimesAreRecorded: Bool = {
    guard let folder = try? DatastoreTestFixtures.Folder() else { return false }
    let path = folder.url.appendingPathComponent("probe").path
    guard FileManager.default.createFile(atPath: path, contents: Data("probe".utf8)),
        (try? FileDatastoreAccessTimeTests.setAccessTimeToTwoDaysAgo(path)) != nil,
        let before = try? FileDatastoreAccessTimeTests.accessTime(path)
    else { return false }
    _ = FileManager.default.contents(atPath: path)
    return (try? FileDatastoreAccessTimeTests.accessTime(path)) != before
}()
