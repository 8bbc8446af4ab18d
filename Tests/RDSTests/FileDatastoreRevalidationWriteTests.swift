import Foundation
import RDSTesting
import Testing

@testable import RDS

/// A revalidation's renewal (``FileDatastore/renewRevalidatedInPlace(_:for:renewing:)``) of a file written
/// less than ``FileDatastore/revalidationWriteInterval`` ago is not written; one of a file not
/// written lately, or past the interval, is written as ``FileDatastore/renewInPlace(_:for:)`` writes it.
@Suite(.timeLimit(.minutes(1)))
struct FileDatastoreRevalidationWriteTests {
    private typealias Store = FileDatastore<String, String>
    private typealias Folder = DatastoreTestFixtures.Folder

    private static func entry(ttl: TimeInterval) -> CacheEntry<String> { DatastoreTestFixtures.entry("v", ttl: ttl) }

    /// A store with an interval of 60 s that saved the entry of `k` (fresh for 60 s) just now.
    private static func storeAfterASave() async throws -> (Folder, ManualClock, Store) {
        let folder = try Folder()
        let clock = ManualClock()
        let store = try Store(directory: folder.store, revalidationWriteInterval: 60, clock: clock)
        try await store.save(entry(ttl: 60), for: "k")
        return (folder, clock, store)
    }

    @Test func renewRevalidatedInPlace_WritesNothing_WithinTheIntervalOfTheKeysLastWrite() async throws {
        let (folder, clock, store) = try await Self.storeAfterASave()
        clock.advance(by: 59)

        #expect(store.renewRevalidatedInPlace(Self.entry(ttl: 120), for: "k", renewing: Self.entry(ttl: 60).expiresAt))
        #expect(store.renewals.count == 0)
        await store.finishWrites()

        #expect(try await Store(directory: folder.store).get("k") == Self.entry(ttl: 60))
    }

    /// A skipped renewal is no write: the interval still counts from the save.
    @Test func renewRevalidatedInPlace_WritesTheRenewal_OnceTheIntervalHasPassedSinceTheLastWrite() async throws {
        let (folder, clock, store) = try await Self.storeAfterASave()
        clock.advance(by: 30)
        #expect(store.renewRevalidatedInPlace(Self.entry(ttl: 90), for: "k", renewing: Self.entry(ttl: 60).expiresAt))
        clock.advance(by: 30)

        #expect(store.renewRevalidatedInPlace(Self.entry(ttl: 120), for: "k", renewing: Self.entry(ttl: 90).expiresAt))
        await store.finishWrites()

        #expect(try await Store(directory: folder.store).get("k") == Self.entry(ttl: 120))
        clock.advance(by: 59)
        #expect(store.renewRevalidatedInPlace(Self.entry(ttl: 180), for: "k", renewing: Self.entry(ttl: 120).expiresAt))
        await store.finishWrites()
        #expect(try await Store(directory: folder.store).get("k") == Self.entry(ttl: 120))
    }

    /// A renewal fresh for less than the interval is not written, even of a file this datastore
    /// did not write (one written before a restart): a read of the file after the interval
    /// would revalidate it anyway. One fresh for the interval is written, and with an interval
    /// of 0 every one, even a renewal already stale (`max-age=0`).
    @Test(arguments: [(60.0, 59.0, false), (60.0, 60.0, true), (0.0, -1.0, true)])
    func renewRevalidatedInPlace_WritesARenewal_OnlyWhenItStaysFreshForTheInterval(
        interval: TimeInterval, ttl: TimeInterval, written: Bool
    ) async throws {
        let folder = try Folder()
        let clock = ManualClock()
        try await Store(directory: folder.store, clock: clock).save(Self.entry(ttl: 10), for: "k")
        let store = try Store(directory: folder.store, revalidationWriteInterval: interval, clock: clock)

        #expect(store.renewRevalidatedInPlace(Self.entry(ttl: ttl), for: "k", renewing: Self.entry(ttl: 10).expiresAt))
        await store.finishWrites()

        #expect(try await Store(directory: folder.store).get("k") == Self.entry(ttl: written ? ttl : 10))
    }

    /// A file this datastore did not write (one written before a restart), or any file with an
    /// interval of 0, has its revalidation written.
    @Test(arguments: [(60.0, true), (0.0, false)])
    func renewRevalidatedInPlace_WritesTheRenewal_OfAFileNotWrittenWithinTheInterval(
        interval: TimeInterval, restarted: Bool
    ) async throws {
        let folder = try Folder()
        let clock = ManualClock()
        let writer = try Store(directory: folder.store, revalidationWriteInterval: interval, clock: clock)
        try await writer.save(Self.entry(ttl: 60), for: "k")
        let store =
            restarted ? try Store(directory: folder.store, revalidationWriteInterval: interval, clock: clock) : writer

        #expect(store.renewRevalidatedInPlace(Self.entry(ttl: 120), for: "k", renewing: Self.entry(ttl: 60).expiresAt))
        await store.finishWrites()

        #expect(try await Store(directory: folder.store).get("k") == Self.entry(ttl: 120))
    }

    /// A renewal that shortens the freshness of the entry it renews (a 304 with a smaller
    /// `max-age`), or of an entry the level in front does not hold, is written, whether it is
    /// fresh only briefly or the file was written just now: the file never stays fresh longer
    /// than the entry in front of it.
    @Test(arguments: [(30.0, 3600.0 as TimeInterval?), (120.0, 3600.0), (30.0, nil), (120.0, nil)])
    func renewRevalidatedInPlace_WritesARenewal_ThatShortensTheFreshness_OrOfAnEntryNotHeldInFront(
        ttl: TimeInterval, previousTTL: TimeInterval?
    ) async throws {
        let folder = try Folder()
        let clock = ManualClock()
        let store = try Store(directory: folder.store, revalidationWriteInterval: 60, clock: clock)
        try await store.save(Self.entry(ttl: 3600), for: "k")

        let previousExpiry = previousTTL.map { Self.entry(ttl: $0).expiresAt }
        #expect(store.renewRevalidatedInPlace(Self.entry(ttl: ttl), for: "k", renewing: previousExpiry))
        await store.finishWrites()

        #expect(try await Store(directory: folder.store).get("k") == Self.entry(ttl: ttl))
    }
}
