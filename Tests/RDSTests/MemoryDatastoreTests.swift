import Foundation
import RDS
import RDSTesting
import Testing

struct MemoryDatastoreTests {
    private typealias Store = MemoryDatastore<String, String>
    private func entry(_ value: String, _ ttl: TimeInterval) -> CacheEntry<String> {
        DatastoreTestFixtures.entry(value, ttl: ttl)
    }

    private func cost(_ key: String, _ value: String) -> Int {
        key.utf8.count + value.utf8.count + Store.entryOverhead
    }

    @Test func get_ReturnsSavedEntry() async {
        let store = Store(maxBytes: 10_000, maxEntries: 10)
        let saved = CacheEntry(
            value: "sunny", storedAt: DatastoreTestFixtures.storedAt, expiresAt: DatastoreTestFixtures.storedAt + 5,
            validators: Validators(etag: "\"v1\"", lastModified: "Tue, 01 Jan 2026 00:00:00 GMT"),
            initialAge: 3, mustRevalidate: true)
        await store.save(saved, for: "london")
        #expect(await store.get("london") == saved)
        #expect(await store.get("paris") == nil)
    }

    @Test func get_ReturnsStaleEntry_WhenExpired() async {
        let clock = ManualClock()
        let store = Store(maxBytes: 10_000, maxEntries: 10)
        await store.save(CacheEntry(value: "old", storedAt: clock.now, expiresAt: clock.now + 10), for: "k")
        clock.advance(by: 3_600)
        let stale = await store.get("k")
        #expect(stale?.value == "old")
        #expect(stale?.isFresh(at: clock.now) == false)
    }

    @Test func save_EvictsLeastRecentlyUsed_WhenEntryCountExceeded() async {
        let store = Store(maxBytes: 1_000_000, maxEntries: 3)
        for key in ["a", "b", "c", "d"] { await store.save(entry(key, 60), for: key) }
        #expect(store.keysByRecency == ["d", "c", "b"])
        #expect(await store.get("a") == nil)
        #expect(store.statistics.evictions == 1)
    }

    @Test func get_MarksEntryAsMostRecentlyUsed() async {
        let store = Store(maxBytes: 1_000_000, maxEntries: 3)
        for key in ["a", "b", "c"] { await store.save(entry(key, 60), for: key) }
        _ = await store.get("a")
        #expect(store.keysByRecency == ["a", "c", "b"])
        await store.save(entry("d", 60), for: "d")
        #expect(store.keysByRecency == ["d", "a", "c"])
        #expect(store.peek("b") == nil)
    }

    @Test func peek_MarksEntryAsMostRecentlyUsed() async {
        let store = Store(maxBytes: 1_000_000, maxEntries: 2)
        await store.save(entry("1", 60), for: "a")
        await store.save(entry("2", 60), for: "b")
        #expect(store.peek("a")?.value == "1")
        await store.save(entry("3", 60), for: "c")
        #expect(store.keysByRecency == ["c", "a"])
    }

    @Test func save_EvictsOldestUntilBytesFit_WhenByteBoundExceeded() async {
        let value = String(repeating: "x", count: 100)
        let perEntry = cost("k0", value)
        let store = Store(maxBytes: perEntry * 3 + perEntry / 2, maxEntries: 100)
        for index in 0..<3 { await store.save(entry(value, 60), for: "k\(index)") }
        #expect(store.statistics == DatastoreStatistics(entries: 3, bytes: perEntry * 3, evictions: 0))

        let big = String(repeating: "y", count: 100 + perEntry)
        await store.save(entry(big, 60), for: "k9")
        #expect(store.keysByRecency == ["k9", "k2"])
        #expect(store.statistics == DatastoreStatistics(entries: 2, bytes: perEntry + cost("k9", big), evictions: 2))
    }

    @Test func save_KeepsNothing_WhenEntryAloneExceedsMaxBytes() async {
        let store = Store(maxBytes: 500, maxEntries: 10)
        await store.save(entry("small", 60), for: "k")
        await store.save(entry("other", 60), for: "j")
        await store.save(entry(String(repeating: "z", count: 500), 60), for: "k")
        #expect(await store.get("k") == nil)
        #expect(await store.get("j")?.value == "other")
        #expect(store.statistics == DatastoreStatistics(entries: 1, bytes: cost("j", "other"), evictions: 0))
    }

    @Test func save_ReplacesEntry_AndRecountsBytes() async {
        let store = Store(maxBytes: 10_000, maxEntries: 10)
        await store.save(entry("short", 60), for: "k")
        await store.save(entry("a much longer value", 60), for: "k")
        #expect(await store.get("k")?.value == "a much longer value")
        #expect(
            store.statistics == DatastoreStatistics(entries: 1, bytes: cost("k", "a much longer value"), evictions: 0))
    }

    @Test func delete_RemovesOnlyThatKey_AndDeleteAllRemovesEverything() async {
        let store = Store(maxBytes: 10_000, maxEntries: 10)
        for key in ["a", "b", "c"] { await store.save(entry(key, 60), for: key) }
        await store.delete("b")
        #expect(store.keysByRecency == ["c", "a"])
        #expect(store.statistics.bytes == cost("a", "a") + cost("c", "c"))
        await store.deleteAll()
        #expect(store.statistics == DatastoreStatistics(entries: 0, bytes: 0, evictions: 0))
        await store.save(entry("again", 60), for: "a")
        #expect(await store.get("a")?.value == "again")
    }

    @Test func save_RespectsBothBounds_WhenManyTasksWriteAndReadAtOnce() async {
        let value = String(repeating: "v", count: 50)
        let perEntry = cost("key-000", value)
        let store = Store(maxBytes: perEntry * 40, maxEntries: 64)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<32 {
                group.addTask {
                    for step in 0..<300 {
                        let key = "key-" + String(format: "%03d", (task * 7 + step * 13) % 120)
                        if step % 3 == 0 {
                            _ = store.peek(key)
                        } else if step % 5 == 0 {
                            await store.delete(key)
                        } else {
                            await store.save(DatastoreTestFixtures.entry(value), for: key)
                        }
                        _ = await store.get(key)
                    }
                }
            }
        }
        let statistics = store.statistics
        let keys = store.keysByRecency
        #expect(statistics.entries == keys.count)
        #expect(Set(keys).count == keys.count)
        #expect(statistics.entries <= 40)
        #expect(statistics.bytes == keys.count * perEntry)
        #expect(statistics.evictions > 0)
        for key in keys { #expect(store.peek(key)?.value == value) }
    }

    @Test func save_KeepsEveryEntry_WhenManyTasksWriteDistinctKeysWithinBounds() async {
        let store = MemoryDatastore<String, [UInt8]>(maxBytes: 10_000_000, maxEntries: 2_000)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<20 {
                group.addTask {
                    for index in 0..<100 {
                        await store.save(
                            DatastoreTestFixtures.entry([UInt8(task), UInt8(index)]), for: "\(task)/\(index)")
                    }
                }
            }
        }
        #expect(store.statistics.entries == 2_000)
        #expect(store.statistics.evictions == 0)
        for task in 0..<20 {
            for index in 0..<100 { #expect(await store.get("\(task)/\(index)")?.value == [UInt8(task), UInt8(index)]) }
        }
    }

    @Test func init_StoresNothing_WhenBoundsAreZeroOrNegative() async {
        let store = Store(maxBytes: -5, maxEntries: 0)
        await store.save(entry("v", 60), for: "k")
        #expect(store.peek("k") == nil)
        #expect(store.maxBytes == 0)
    }
}
