import Dispatch
import Foundation
import Testing

@testable import RDS

/// Renewals kept and written later in batches (``FileDatastore/renew(_:for:)``): the caller does
/// not wait, a read answers the renewal meanwhile, a later change of the key supersedes it, a
/// failed write leaves no older entry behind, and past the bound a renewal is a waited save.
@Suite(.timeLimit(.minutes(1)))
struct FileDatastoreRenewalTests {
    private typealias Store = FileDatastore<String, String>
    private typealias Folder = DatastoreTestFixtures.Folder

    /// Holds `queue` until the returned semaphore is signalled.
    private static func hold(_ queue: DispatchQueue) -> DispatchSemaphore {
        let held = DispatchSemaphore(value: 0)
        queue.async { held.wait() }
        return held
    }

    @Test func renew_ReturnsBeforeItsWrite_AndAReadAnswersItMeanwhile() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store, hash: SHA256.digest, queueCount: 1)
        try await store.save(DatastoreTestFixtures.entry("old"), for: "k")
        let held = Self.hold(store.queues[0])

        try await store.renew(DatastoreTestFixtures.entry("renewed", ttl: 120), for: "k")
        let read = try await store.get("k")
        held.signal()
        await store.finishWrites()

        #expect(read == DatastoreTestFixtures.entry("renewed", ttl: 120))
        #expect(store.renewals.count == 0)
        #expect(try await Store(directory: folder.store).get("k") == DatastoreTestFixtures.entry("renewed", ttl: 120))
        #expect(store.statistics.entries == 1)
    }

    @Test func renew_WritesAKeyRenewedTwiceOnce_WithTheNewerRenewal() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        let held = Self.hold(store.maintenanceQueue)

        try await store.renew(DatastoreTestFixtures.entry("first"), for: "k")
        try await store.renew(DatastoreTestFixtures.entry("second"), for: "k")
        try await store.renew(DatastoreTestFixtures.entry("other"), for: "j")
        let pending = store.renewals.count
        held.signal()
        await store.finishWrites()

        #expect(pending == 2)
        #expect(try await Store(directory: folder.store).get("k")?.value == "second")
        #expect(try await Store(directory: folder.store).get("j")?.value == "other")
    }

    @Test func renew_IsNeverWritten_AfterADeleteOrAPurgeOfItsKey() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        try await store.save(DatastoreTestFixtures.entry("old"), for: "k")
        let held = Self.hold(store.maintenanceQueue)

        try await store.renew(DatastoreTestFixtures.entry("renewed"), for: "k")
        try await store.delete("k")
        try await store.renew(DatastoreTestFixtures.entry("renewed"), for: "i")
        try await store.save(DatastoreTestFixtures.entry("saved"), for: "i")
        try await store.renew(DatastoreTestFixtures.entry("renewed"), for: "j")
        let pendingBeforePurge = store.renewals.count
        held.signal()  // deleteAll runs on the held queue
        try await store.deleteAll()
        try await store.save(DatastoreTestFixtures.entry("saved"), for: "i")
        await store.finishWrites()

        #expect(pendingBeforePurge == 1)
        #expect(try await store.get("k") == nil)
        #expect(try await store.get("j") == nil)
        #expect(try await store.get("i")?.value == "saved")
        #expect(try folder.names().count == 1)
        #expect(store.statistics.entries == 1)
    }

    @Test func renew_CountsAFailedWrite_InsteadOfThrowing() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        try FileManager.default.removeItem(at: folder.store)
        try Data("in the way".utf8).write(to: folder.store)

        try await store.renew(DatastoreTestFixtures.entry("v"), for: "k")
        await store.finishWrites()

        #expect(store.statistics.writeFailures == 1)
        #expect(store.statistics.lastWriteFailure?.code == DatastoreErrorKind.writeFailed.rawValue)
    }

    @Test func renew_RemovesTheOlderEntry_WhenItsWriteFails() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store, maxBytes: 400)
        try await store.save(DatastoreTestFixtures.entry("old"), for: "k")

        try await store.renew(DatastoreTestFixtures.entry(String(repeating: "x", count: 500)), for: "k")
        await store.finishWrites()

        #expect(try await store.get("k") == nil)
        #expect(try folder.names().isEmpty)
        #expect(store.statistics == DatastoreStatistics(entries: 0, bytes: 0, evictions: 0))
    }

    @Test func renew_WaitsAndThrows_WhenNoMoreRenewalsMayBeKept() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store, maxPendingRenewals: 0)
        try FileManager.default.removeItem(at: folder.store)
        try Data("in the way".utf8).write(to: folder.store)

        await #expect(throws: DatastoreError.self) {
            try await store.renew(DatastoreTestFixtures.entry("v"), for: "k")
        }
        #expect(store.statistics.writeFailures == 1)
    }

    @Test func renewInPlace_KeepsTheRenewalToWriteBehind_AsRenewDoes() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store, hash: SHA256.digest, queueCount: 1)
        try await store.save(DatastoreTestFixtures.entry("old"), for: "k")
        let held = Self.hold(store.queues[0])

        let renewed = store.renewInPlace(DatastoreTestFixtures.entry("renewed", ttl: 120), for: "k")
        let read = try await store.get("k")
        held.signal()
        await store.finishWrites()

        #expect(renewed)
        #expect(read == DatastoreTestFixtures.entry("renewed", ttl: 120))
        #expect(try await Store(directory: folder.store).get("k") == DatastoreTestFixtures.entry("renewed", ttl: 120))
    }

    @Test func renewInPlace_ChangesNothing_WhenNoMoreRenewalsMayBeKept() async throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store, maxPendingRenewals: 0)
        try await store.save(DatastoreTestFixtures.entry("old"), for: "k")

        #expect(!store.renewInPlace(DatastoreTestFixtures.entry("renewed"), for: "k"))
        await store.finishWrites()

        #expect(store.renewals.count == 0)
        #expect(try await Store(directory: folder.store).get("k")?.value == "old")
    }

    @Test func pendingRenewals_KeepTheNewestPerFile_WithinTheirLimit() throws {
        let folder = try Folder()
        let store = try Store(directory: folder.store)
        let renewals = PendingRenewals<String, String>(limit: 2)
        let renewal = { (key: String, value: String) in
            PendingRenewals<String, String>.Renewal(
                entry: DatastoreTestFixtures.entry(value), location: try store.location(of: key))
        }

        let added = [
            renewals.add(try renewal("a", "1")), renewals.add(try renewal("a", "2")),
            renewals.add(try renewal("b", "1")), renewals.add(try renewal("c", "1")),
        ]

        #expect(added == [.added(firstOfBatch: true), .replaced, .added(firstOfBatch: false), .refused])
        #expect(renewals.take(at: try store.location(of: "a").entryPath)?.entry.value == "2")
        #expect(renewals.takeAll().map(\.entry.value) == ["1"])
        #expect(renewals.count == 0)
    }
}
