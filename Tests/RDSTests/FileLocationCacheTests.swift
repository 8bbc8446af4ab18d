import Foundation
import Synchronization
import Testing

@testable import RDS

/// The locations a ``FileDatastore`` holds for the keys it wrote lately: a key saved or renewed
/// again, saved after a read found no file for it, or read, is not hashed again, and the table
/// never holds more than its capacity.
struct FileLocationCacheTests {
    @Test func hold_StartsTheTableOver_WhenANewKeyFindsItFull() {
        let cache = FileLocationCache<String, Int>(capacity: 2)
        cache.hold(1, for: "a")
        cache.hold(2, for: "b")
        cache.hold(20, for: "b")
        #expect(cache.count == 2 && cache.location(of: "a") == 1 && cache.location(of: "b") == 20)
        cache.hold(3, for: "c")
        #expect(cache.count == 1 && cache.location(of: "c") == 3 && cache.location(of: "a") == nil)
    }

    @Test func fileDatastore_HashesAWrittenKeyOnce_ForItsSavesRenewalsAndReads() async throws {
        let folder = try DatastoreTestFixtures.Folder()
        let (store, hashes) = try Self.storeCountingHashes(in: folder)
        try await store.save(DatastoreTestFixtures.entry("1"), for: "k")
        for value in ["2", "3"] {
            try await store.renew(DatastoreTestFixtures.entry(value), for: "k")
            await store.finishWrites()
        }
        try await store.save(DatastoreTestFixtures.entry("4"), for: "k")
        #expect(hashes() == 1)
        #expect(try await store.get("k")?.value == "4")
        #expect(hashes() == 1, "a read uses the location held for a written key")
        #expect(try await store.get("other") == nil)
        #expect(hashes() == 2, "a read of a key not held makes its location")
        #expect(try await FileDatastore<String, String>(directory: folder.store).get("k")?.value == "4")
    }

    @Test func fileDatastore_HashesAKeyOnce_ForAMissAndTheSaveAfterIt() async throws {
        let folder = try DatastoreTestFixtures.Folder()
        let (store, hashes) = try Self.storeCountingHashes(in: folder)
        #expect(try await store.get("cold") == nil)
        try await store.renew(DatastoreTestFixtures.entry("1"), for: "cold")
        await store.finishWrites()
        #expect(hashes() == 1)
        #expect(try await FileDatastore<String, String>(directory: folder.store).get("cold")?.value == "1")
    }

    /// A datastore in `folder`, and the number of keys it hashed so far.
    private static func storeCountingHashes(in folder: DatastoreTestFixtures.Folder) throws
        -> (FileDatastore<String, String>, () -> Int)
    {
        let hashed = Mutex(0)
        let store = try FileDatastore<String, String>(
            directory: folder.store,
            hash: { bytes in
                hashed.withLock { $0 += 1 }
                return SHA256.digest(bytes)
            })
        return (store, { hashed.withLock { $0 } })
    }
}
