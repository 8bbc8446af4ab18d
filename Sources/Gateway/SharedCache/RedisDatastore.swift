import Foundation
import RDS
import Redis

/// The shared level: a ``Datastore`` in Redis that every replica reads and writes.
///
/// - Entries use the disk level's checksummed layout (``FileEntryFormat``: full key inside,
///   XXH64 over everything), so a corrupt, foreign or colliding value reads as a miss.
/// - Keys are `<prefix>e:<repository>:<SHA-256 of the key bytes>`: any key length is safe.
/// - Each entry carries its own Redis TTL: the time it stays fresh plus the longest stale window
///   it may still be served in (its own, else the repository's), at least one second.
/// - Every change is announced on the invalidation stream in the same transaction (`MULTI`,
///   `SET` + tag sets + `XADD`, `EXEC`; `DEL` + `XADD`), so other replicas drop their local copies.
/// - With `tagsOf`, each stored key joins a sorted set per tag, scored by its entry's expiry, so
///   a tag purge on any replica finds every replica's keys without scanning the keyspace.
/// - Redis failing or slow (past the command timeout) never throws: a read is a miss, a write is
///   skipped, and ``SharedCache`` counts the fallback and reports the level degraded. The levels
///   above keep serving. A delete that could not reach Redis leaves the shared entry until its TTL.
public final class RedisDatastore<Key: Hashable & Sendable & DatastoreCodable, Value: Sendable & DatastoreCodable>:
    Datastore
{
    /// The repository whose entries these are.
    public let repository: String
    private let shared: SharedCache
    private let clock: any ClockProvider
    private let retention: TimeInterval
    private let tagsOf: (@Sendable (Value) -> [String])?

    /// A shared level for `repository`.
    /// - Parameters:
    ///   - retention: The repository's longest stale window (stale-while-revalidate,
    ///     stale-if-error), added to an entry's freshness for its Redis TTL unless the entry has its own.
    ///   - tagsOf: The tags a value carries, kept in Redis tag sets with the entry; `nil` for none.
    public init(
        repository: String, shared: SharedCache, clock: any ClockProvider, retention: TimeInterval,
        tagsOf: (@Sendable (Value) -> [String])? = nil
    ) {
        self.repository = repository
        self.shared = shared
        self.clock = clock
        self.retention = retention
        self.tagsOf = tagsOf
    }

    /// The keys stored with `tag` by any replica whose entries have not expired: the tag's sorted
    /// set in Redis (`<prefix>t:<repository>:<tag>`, members scored by their entry's expiry);
    /// empty when Redis fails.
    public func keys(taggedWith tag: String) async -> [Key] {
        let now = String(Int64(clock.now.timeIntervalSince1970 * 1_000))
        let read = RedisCommand(parts: [
            Array("ZRANGEBYSCORE".utf8), shared.tagKey(repository: repository, tag: tag), Array(now.utf8),
            Array("+inf".utf8),
        ])
        guard let reply = await shared.run([read], operation: "tag")?[0].array else { return [] }
        return reply.compactMap { $0.bytes.flatMap { try? Key(decodingBytes: $0) } }
    }

    /// The entry from Redis; `nil` on a miss, a corrupt value or when Redis fails.
    /// - Throws: ``DatastoreError`` (`codingFailed`) when the key cannot be encoded.
    public func get(_ key: Key) async throws -> CacheEntry<Value>? {
        let keyBytes = try encoded(key)
        let redisKey = shared.entryKey(repository: repository, keyBytes: keyBytes)
        guard let reply = await shared.run([RedisCommand(parts: [Array("GET".utf8), redisKey])], operation: "get")
        else { return nil }
        guard let bytes = reply[0].bytes,
            case .entry(let stored) = FileEntryFormat.decode(bytes, keyBytes: keyBytes),
            let value = try? Value(decodingBytes: stored.value)
        else {
            shared.health.count(\.misses)
            return nil
        }
        shared.health.count(\.hits)
        return stored.withValue(value)
    }

    /// Stores `entry` with its TTL and announces it; skipped (counted) when Redis fails.
    /// - Throws: ``DatastoreError`` (`codingFailed`) when the key or value cannot be encoded.
    public func save(_ entry: CacheEntry<Value>, for key: Key) async throws {
        let keyBytes = try encoded(key)
        let valueBytes: [UInt8]
        do {
            valueBytes = try entry.value.encodedBytes()
        } catch {
            throw DatastoreError(.codingFailed, "Could not encode the value for the shared level", inner: error)
        }
        let contents = FileEntryFormat.encode(entry.withValue(valueBytes), keyBytes: keyBytes)
        let window = max(entry.staleWhileRevalidate ?? retention, entry.staleIfError ?? retention)
        let lifetime = entry.expiresAt.timeIntervalSince(clock.now) + window
        let milliseconds = max(1_000, Int64(min(lifetime, 31_536_000 * 10) * 1_000))
        let set = RedisCommand(parts: [
            Array("SET".utf8), shared.entryKey(repository: repository, keyBytes: keyBytes), contents, Array("PX".utf8),
            Array(String(milliseconds).utf8),
        ])
        let expiry = Int64(clock.now.timeIntervalSince1970 * 1_000) + milliseconds
        let tagging = (tagsOf?(entry.value) ?? []).map { tagCommand($0, key: keyBytes, expiry: expiry, ttl: milliseconds) }
        await announce(
            .stored, key: keyBytes, version: InvalidationMessage.version(ofEncoded: contents), after: [set] + tagging)
    }

    /// Removes the entry and announces it; skipped (counted) when Redis fails.
    /// - Throws: ``DatastoreError`` (`codingFailed`) when the key cannot be encoded.
    public func delete(_ key: Key) async throws {
        let keyBytes = try encoded(key)
        let delete = RedisCommand(parts: [Array("DEL".utf8), shared.entryKey(repository: repository, keyBytes: keyBytes)])
        await announce(.deleted, key: keyBytes, version: 0, after: [delete])
    }

    /// Removes every entry of the repository (found with `SCAN` on its key pattern, removed with
    /// `UNLINK`) and announces it. Stops at the first Redis failure (counted).
    public func deleteAll() async throws {
        var cursor = "0"
        repeat {
            let scan = RedisCommand("SCAN", cursor, "MATCH", shared.entryPattern(repository: repository), "COUNT", "1000")
            guard let reply = await shared.run([scan], operation: "scan")?[0].array, reply.count == 2,
                let next = reply[0].string, let keys = reply[1].array
            else { return }
            cursor = next
            let names = keys.compactMap(\.bytes)
            if !names.isEmpty {
                guard await shared.run([RedisCommand(parts: [Array("UNLINK".utf8)] + names)], operation: "unlink") != nil
                else { return }
            }
        } while cursor != "0"
        await announce(.purgedAll, key: [], version: 0, after: [])
    }

    /// Runs `commands` and the announcement in one `MULTI` transaction: the entry, its tag sets
    /// and the news change together.
    private func announce(
        _ operation: InvalidationMessage.Operation, key: [UInt8], version: Int64, after commands: [RedisCommand]
    ) async {
        let message = InvalidationMessage(
            replica: shared.replicaID, repository: repository, operation: operation, key: key, version: version)
        let transaction = [RedisCommand("MULTI")] + commands + [shared.announcement(message), RedisCommand("EXEC")]
        guard let replies = await shared.run(transaction, operation: operation.rawValue) else { return }
        if replies.last?.array != nil { shared.health.count(\.announced) }
    }

    /// Adds `key` to the set of `tag` until `expiry` (ms since 1970), drops the set's expired
    /// members, and keeps the set itself at least as long as its newest member (a script, so any
    /// Redis since 2.6 runs it).
    private func tagCommand(_ tag: String, key: [UInt8], expiry: Int64, ttl: Int64) -> RedisCommand {
        RedisCommand(parts: [
            Array("EVAL".utf8), Array(Self.tagScript.utf8), Array("1".utf8),
            shared.tagKey(repository: repository, tag: tag), Array(String(expiry).utf8), key,
            Array(String(expiry - ttl).utf8), Array(String(ttl).utf8),
        ])
    }

    private static var tagScript: String {
        """
        redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
        redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3])
        if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
        return 1
        """
    }

    private func encoded(_ key: Key) throws(DatastoreError) -> [UInt8] {
        do {
            return try key.encodedBytes()
        } catch {
            throw DatastoreError(.codingFailed, "Could not encode the key for the shared level", inner: error)
        }
    }
}
