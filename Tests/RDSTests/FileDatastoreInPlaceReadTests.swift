import Dispatch
import Foundation
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
        while store.changesInFlight.isQuiet(location.bucket) { try await Task.sleep(for: .milliseconds(1)) }
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
