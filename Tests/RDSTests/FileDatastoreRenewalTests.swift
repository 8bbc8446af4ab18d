import Dispatch
import Foundation
import Testing

@testable import RDS

/// Renewals written behind (``FileDatastore/renew(_:for:)``): the caller does not wait for the
/// write, reads and changes of the key still come after it, a failed renewal leaves no older
/// entry behind, and past the bound a renewal is a waited save.
@Suite(.timeLimit(.minutes(1)))
struct FileDatastoreRenewalTests {
    private typealias Store = FileDatastore<String, String>
    private typealias Folder = DatastoreTestFixtures.Folder

    @Test func renew_ReturnsBeforeItsWriteIsDone_AndAReadComesAfterIt() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store, hash: SHA256.digest, queueCount: 1)
        try await store.save(DatastoreTestFixtures.entry("old"), for: "k")
        // The key's queue is held until the renewal has returned: waited for, it could not return.
        let held = DispatchSemaphore(value: 0)
        store.queues[0].async { held.wait() }

        try await store.renew(DatastoreTestFixtures.entry("renewed", ttl: 120), for: "k")
        let queued = store.writesBehind.count
        held.signal()
        let read = try await store.get("k")

        #expect(queued == 1)
        #expect(read == DatastoreTestFixtures.entry("renewed", ttl: 120))
        #expect(store.writesBehind.count == 0)
        #expect(store.statistics.entries == 1)
    }

    @Test func renew_CountsAFailedWriteBehind_InsteadOfThrowing() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        try FileManager.default.removeItem(at: folder.store)
        try Data("in the way".utf8).write(to: folder.store)

        try await store.renew(DatastoreTestFixtures.entry("v"), for: "k")
        await store.finishWrites()

        #expect(store.statistics.writeFailures == 1)
        #expect(store.statistics.lastWriteFailure?.code == DatastoreErrorKind.writeFailed.rawValue)
    }

    @Test func renew_RemovesTheOlderEntry_WhenItsWriteBehindFails() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store, maxBytes: 400)
        try await store.save(DatastoreTestFixtures.entry("old"), for: "k")

        try await store.renew(DatastoreTestFixtures.entry(String(repeating: "x", count: 500)), for: "k")
        await store.finishWrites()

        #expect(try await store.get("k") == nil)
        #expect(try folder.names().isEmpty)
        #expect(store.statistics == DatastoreStatistics(entries: 0, bytes: 0, evictions: 0))
    }

    @Test func renew_WaitsAndThrows_WhenNoMoreWritesMayBeQueuedBehind() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store, maxWritesBehind: 0)
        try FileManager.default.removeItem(at: folder.store)
        try Data("in the way".utf8).write(to: folder.store)

        await #expect(throws: DatastoreError.self) {
            try await store.renew(DatastoreTestFixtures.entry("v"), for: "k")
        }
        #expect(store.statistics.writeFailures == 1)
    }

    @Test func writesBehind_AdmitsUpToItsLimit_AndAgainOnceOneIsDone() {
        let writes = WritesBehind(limit: 2)

        let admitted = [writes.admit(), writes.admit(), writes.admit()]
        writes.finish()

        #expect(admitted == [true, true, false])
        #expect(writes.admit())
        #expect(writes.count == 2)
        #expect(!WritesBehind(limit: 0).admit())
    }
}
