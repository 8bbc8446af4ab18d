import Foundation
import RDS
import RDSTesting
import Redis
import Testing

@testable import Gateway

/// The shared level alone against a real `redis-server`: encoding, TTL, key naming, corrupt
/// values, announcements, purges, and Redis failing without failing the caller.
@Suite(.enabled(if: RedisTestServer.isEnabled, "needs redis-server (apt-get install redis-server)"))
struct RedisDatastoreTests {
    private static func shared(_ server: RedisTestServer, prefix: String = "t:") throws -> SharedCache {
        try SharedCache(settings: RedisSettings(url: server.url, prefix: prefix, connectTimeout: 5, commandTimeout: 5), logger: RecordingLogger())
    }

    private static func store(
        _ repository: String, _ shared: SharedCache, _ clock: ManualClock, retention: TimeInterval
    ) -> RedisDatastore<String, String> {
        RedisDatastore(repository: repository, shared: shared, clock: clock, retention: retention)
    }

    /// An entry fresh for a minute.
    private static func entry(_ value: String, _ clock: ManualClock) -> CacheEntry<String> {
        CacheEntry(value: value, storedAt: clock.now, expiresAt: clock.now + 60)
    }

    /// `command` on the Redis key of `key` in `items`.
    private static func ask(_ client: RedisClient, _ command: String, _ shared: SharedCache, _ key: String) async throws -> RESPValue {
        try await client.send(
            RedisCommand(parts: [Array(command.utf8), shared.entryKey(repository: "items", keyBytes: Array(key.utf8))]))
    }

    private static func raw(_ server: RedisTestServer) throws -> RedisClient {
        RedisClient(configuration: try RedisConfiguration(url: server.url, commandTimeout: .seconds(2)))
    }

    @Test func entry_RoundTripsWithValidatorsAndWindows_UnderAPrefixedHashedKey() async throws {
        let server = try await RedisTestServer.start()
        let clock = ManualClock()
        let store = Self.store("items", try Self.shared(server), clock, retention: 30)
        let entry = CacheEntry(
            value: "body", storedAt: clock.now, expiresAt: clock.now + 60,
            validators: Validators(etag: "\"v1\"", lastModified: "Tue, 01 Dec 2026 10:00:00 GMT"), initialAge: 3,
            mustRevalidate: true, staleWhileRevalidate: 5, staleIfError: 90)
        let longKey = String(repeating: "k/", count: 5_000)
        try await store.save(entry, for: longKey)
        #expect(try await store.get(longKey) == entry)
        let keys = try await Self.raw(server).send(RedisCommand("KEYS", "*")).array?.compactMap(\.string) ?? []
        #expect(keys.filter { $0.hasPrefix("t:e:items:") }.count == 1)
        #expect(keys.allSatisfy { $0.count < 100 })
        // TTL: 60 s fresh + the entry's longest stale window (90 s).
        let entryKey = try #require(keys.first { $0.hasPrefix("t:e:items:") })
        let ttl = try #require(try await Self.raw(server).send(RedisCommand("PTTL", entryKey)).integer)
        #expect((140_000...150_000).contains(ttl))
        #expect(try await store.get("other") == nil)
        await server.stop()
    }

    @Test func ttl_UsesTheRepositorysWindow_WhenTheEntryHasNone_AndIsAtLeastASecond() async throws {
        let server = try await RedisTestServer.start()
        let clock = ManualClock()
        let shared = try Self.shared(server)
        let store = Self.store("items", shared, clock, retention: 30)
        let client = try Self.raw(server)
        // b lives one second: asked right after it is stored, before anything else.
        let savedB = ContinuousClock.now
        try await store.save(CacheEntry(value: "b", storedAt: clock.now, expiresAt: clock.now - 100), for: "b")
        let b = try await Self.ask(client, "PTTL", shared, "b")
        // On a loaded machine the second may be over before the question: Redis then says -2
        // (gone), which only counts when a whole second has really passed.
        let bExpiredInTime = b.integer == -2 && ContinuousClock.now - savedB >= .seconds(1)
        try await store.save(CacheEntry(value: "a", storedAt: clock.now, expiresAt: clock.now + 10), for: "a")
        let a = try await Self.ask(client, "PTTL", shared, "a")
        // Upper bounds are exact; lower ones leave room for a loaded machine.
        #expect((30_000...40_000).contains(a.integer ?? 0))
        #expect((1...1_000).contains(b.integer ?? 0) || bExpiredInTime)
        await server.stop()
    }

    @Test func corruptOrForeignValue_ReadsAsAMiss() async throws {
        let server = try await RedisTestServer.start()
        let clock = ManualClock()
        let shared = try Self.shared(server)
        let store = Self.store("items", shared, clock, retention: 0)
        try await store.save(Self.entry("good", clock), for: "k")
        let key = shared.entryKey(repository: "items", keyBytes: Array("k".utf8))
        let client = try Self.raw(server)
        var stored = try #require(try await Self.ask(client, "GET", shared, "k").bytes)
        stored[stored.count - 10] ^= 0xff
        try await client.send(RedisCommand(parts: [Array("SET".utf8), key, stored]))
        #expect(try await store.get("k") == nil)
        // A valid entry of another key under this key's name (a collision) is not returned either.
        try await store.save(Self.entry("other", clock), for: "j")
        let other = try #require(try await Self.ask(client, "GET", shared, "j").bytes)
        try await client.send(RedisCommand(parts: [Array("SET".utf8), key, other]))
        #expect(try await store.get("k") == nil)
        #expect(shared.statistics.misses == 2)
        await server.stop()
    }

    @Test func changes_AreAnnounced_WithKeysAndVersions_NeverBodies() async throws {
        let server = try await RedisTestServer.start()
        let clock = ManualClock()
        let shared = try Self.shared(server)
        let store = Self.store("items", shared, clock, retention: 0)
        try await store.save(Self.entry("secret body", clock), for: "k")
        try await store.delete("k")
        try await store.deleteAll()
        let reply = try await Self.raw(server).send(RedisCommand("XRANGE", "t:invalidations", "-", "+"))
        let messages = try RedisStreamEntry.entries(inRangeReply: reply).compactMap(InvalidationMessage.init)
        #expect(messages.map(\.operation) == [.stored, .deleted, .purgedAll])
        #expect(messages.allSatisfy { $0.replica == shared.replicaID && $0.repository == "items" })
        #expect(messages[0].key == Array("k".utf8))
        let stored = Self.entry("secret body", clock)
        #expect(messages[0].version == InvalidationMessage.version(of: stored, keyBytes: Array("k".utf8)))
        #expect(messages[0].version != 0)
        let everything = try RedisStreamEntry.entries(inRangeReply: reply).flatMap(\.fields).map(\.value)
        #expect(!everything.contains(Array("secret body".utf8)))
        #expect(shared.statistics.announced == 3)
        await server.stop()
    }

    @Test func tagSets_FindEveryKeyOfATag_UntilItsEntryExpires() async throws {
        let server = try await RedisTestServer.start()
        let clock = ManualClock()
        let store = RedisDatastore<String, String>(
            repository: "items", shared: try Self.shared(server), clock: clock, retention: 0,
            tagsOf: { $0.split(separator: " ").map(String.init) })
        try await store.save(Self.entry("red blue", clock), for: "a")
        try await store.save(CacheEntry(value: "red", storedAt: clock.now, expiresAt: clock.now + 600), for: "b")
        #expect(Set(await store.keys(taggedWith: "red")) == ["a", "b"])
        #expect(await store.keys(taggedWith: "blue") == ["a"])
        #expect(await store.keys(taggedWith: "green") == [])
        clock.advance(by: 120)
        #expect(await store.keys(taggedWith: "red") == ["b"])
        await server.stop()
    }

    @Test func deleteAll_RemovesThisRepositorysEntriesOnly() async throws {
        let server = try await RedisTestServer.start()
        let clock = ManualClock()
        let shared = try Self.shared(server)
        let items = Self.store("items", shared, clock, retention: 0)
        let news = Self.store("news", shared, clock, retention: 0)
        for index in 0..<2_500 {
            try await items.save(Self.entry("v", clock), for: "k\(index)")
        }
        try await news.save(Self.entry("n", clock), for: "k0")
        try await items.deleteAll()
        #expect(try await items.get("k7") == nil)
        #expect(try await news.get("k0")?.value == "n")
        #expect(try await Self.raw(server).send(RedisCommand("DBSIZE")).integer == 2)
        await server.stop()
    }

    @Test func redisDown_ReadsMiss_WritesAreSkipped_NothingThrows_AndItIsCounted() async throws {
        let server = try await RedisTestServer.start()
        let clock = ManualClock()
        let logger = RecordingLogger()
        let shared = try SharedCache(settings: RedisSettings(url: server.url, prefix: "t:"), logger: logger)
        let store = Self.store("items", shared, clock, retention: 0)
        try await store.save(Self.entry("v", clock), for: "k")
        await server.stop()
        #expect(try await store.get("k") == nil)
        try await store.save(Self.entry("w", clock), for: "k")
        try await store.delete("k")
        let statistics = shared.statistics
        #expect(statistics.commandsFailing && statistics.isDegraded)
        #expect(statistics.fallbacks == 3 && statistics.errors == 3)
        #expect(logger.events.filter { $0 == "shared_cache_degraded" }.count == 1)
        let back = try await RedisTestServer.start(port: server.port)
        var value: String?
        for _ in 0..<100 where value == nil {
            try await store.save(Self.entry("x", clock), for: "k")
            value = try await store.get("k")?.value
            if value == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(value == "x")
        #expect(!shared.statistics.commandsFailing)
        #expect(logger.events.contains("shared_cache_recovered"))
        await back.stop()
    }

    @Test func threeLevels_ReadThroughIntoDiskAndMemory_OfAnotherReplica() async throws {
        let server = try await RedisTestServer.start()
        let clock = ManualClock()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rds-3l-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = Self.store("items", try Self.shared(server), clock, retention: 0)
        try await writer.save(Self.entry("shared", clock), for: "k")
        let memory = MemoryDatastore<String, String>(maxBytes: 1 << 20, maxEntries: 100)
        let disk = try FileDatastore<String, String>(directory: folder)
        let reader = Self.store("items", try Self.shared(server), clock, retention: 0)
        let chain = TwoLevelDatastore(l1: memory, l2: TwoLevelDatastore(l1: disk, l2: reader, logger: RecordingLogger()), logger: RecordingLogger())
        #expect(chain.peek("k") == nil)
        #expect(try await chain.get("k")?.value == "shared")
        #expect(chain.peek("k")?.value == "shared")
        #expect(try await disk.get("k")?.value == "shared")
        await server.stop()
    }
}
