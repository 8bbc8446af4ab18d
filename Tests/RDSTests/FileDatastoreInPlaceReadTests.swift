import Dispatch
import Foundation
import RDSTesting
import Testing

@testable import RDS

/// Reads answered in place (the file in the page cache, no change of its key under way) and the
/// reads that must wait on the key's queue instead.
struct FileDatastoreInPlaceReadTests {
    private typealias Store = FileDatastore<String, String>

    @Test func get_ReadsAFileInThePageCacheInPlace() async throws {
        let folder = try DatastoreTestFixtures.Folder()
        let store = try Store(directory: folder.store)
        try await store.save(DatastoreTestFixtures.entry("v1"), for: "k")
        #expect(try await store.get("k")?.value == "v1")
        #expect(try await store.get("missing") == nil)
        #expect(store.changesInFlight.readsInPlace == 1)
    }

    @Test func get_WaitsForASaveOfItsKeyThatIsQueued_AndReturnsWhatItWrote() async throws {
        let folder = try DatastoreTestFixtures.Folder()
        let store = try Store(directory: folder.store)
        try await store.save(DatastoreTestFixtures.entry("old"), for: "k")
        let location = try store.location(of: "k")
        // The key's queue is held, so the save below is queued behind it.
        let hold = DispatchSemaphore(value: 0)
        location.queue.async { hold.wait() }
        let saving = Task { try await store.save(DatastoreTestFixtures.entry("new"), for: "k") }
        try #require(await eventually { !store.changesInFlight.isQuiet(location.bucket) })
        let reading = Task { try await store.get("k")?.value }
        // Released once the read has gone to the queue, behind the save (a read in place would
        // never get there: it would have found the old file).
        let waitingSince = ContinuousClock.now
        while store.changesInFlight.readsOnQueue == 0, ContinuousClock.now - waitingSince < .seconds(10) {
            try await Task.sleep(for: .milliseconds(1))
        }
        hold.signal()
        try await saving.value
        #expect(try await reading.value == "new")
        #expect(store.changesInFlight.readsInPlace == 0)
    }

    @Test func get_AfterTheFastPathFoundTheFileMissing_TrustsThatOnlyUntilAChangeOfItsBucketBegins() async throws {
        let folder = try DatastoreTestFixtures.Folder()
        let store = try Store(directory: folder.store)
        let location = try store.location(of: "k")
        #expect(store.entryInPlace(for: "k") == nil)
        #expect(store.changesInFlight.takeMissing(location.entryPath))
        #expect(!store.changesInFlight.takeMissing(location.entryPath))  // once
        #expect(store.entryInPlace(for: "k") == nil)
        try await store.save(DatastoreTestFixtures.entry("v"), for: "k")
        #expect(try await store.get("k")?.value == "v")
        // A miss noted before a change began in the bucket is not trusted.
        let mark = try #require(store.changesInFlight.quietMark(location.bucket))
        store.changesInFlight.begin(location.bucket)
        store.changesInFlight.end(location.bucket)
        store.changesInFlight.noteMissing(location.entryPath, bucket: location.bucket, since: mark)
        #expect(!store.changesInFlight.takeMissing(location.entryPath))
    }

    @Test func get_OfACorruptFile_GoesToTheQueue_WhichRemovesIt() async throws {
        let folder = try DatastoreTestFixtures.Folder()
        let store = try Store(directory: folder.store)
        try await store.save(DatastoreTestFixtures.entry(String(repeating: "x", count: 500)), for: "k")
        let path = try store.location(of: "k").path
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count - 10] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try await store.get("k") == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(store.statistics.entries == 0)
        #expect(store.changesInFlight.readsInPlace == 0)
    }
}
