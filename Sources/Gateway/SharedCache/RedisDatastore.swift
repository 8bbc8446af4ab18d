import Foundation
import RDS
import Redis

/// The shared level: a ``Datastore`` in Redis that every replica reads and writes.
///
/// - Entries use the disk level's checksummed layout (``FileEntryFormat``: full key inside,
///   CRC-32 over everything), so a corrupt, foreign or colliding value reads as a miss.
/// - Keys are `<prefix>e:<repository>:<SHA-256 of the key bytes>`: any key length is safe.
/// - Each entry carries its own Redis TTL: the time it stays fresh plus the longest stale window
///   it may still be served in (its own, else the repository's), at least one second.
/// - Every change is announced on the invalidation stream in the same round trip (`SET`+`XADD`,
///   `DEL`+`XADD`), so other replicas drop their local copies.
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

    /// A shared level for `repository`.
    /// - Parameters:
    ///   - retention: The repository's longest stale window (stale-while-revalidate,
    ///     stale-if-error), added to an entry's freshness for its Redis TTL unless the entry has its own.
    public init(repository: String, shared: SharedCache, clock: any ClockProvider, retention: TimeInterval) {
        self.repository = repository
        self.shared = shared
        self.clock = clock
        self.retention = retention
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
        let version = Int64(entry.storedAt.timeIntervalSince1970 * 1_000)
        await announce(.stored, key: keyBytes, version: version, after: set)
    }

    /// Removes the entry and announces it; skipped (counted) when Redis fails.
    /// - Throws: ``DatastoreError`` (`codingFailed`) when the key cannot be encoded.
    public func delete(_ key: Key) async throws {
        let keyBytes = try encoded(key)
        let delete = RedisCommand(parts: [Array("DEL".utf8), shared.entryKey(repository: repository, keyBytes: keyBytes)])
        await announce(.deleted, key: keyBytes, version: 0, after: delete)
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
        await announce(.purgedAll, key: [], version: 0, after: nil)
    }

    private func announce(
        _ operation: InvalidationMessage.Operation, key: [UInt8], version: Int64, after command: RedisCommand?
    ) async {
        let message = InvalidationMessage(
            replica: shared.replicaID, repository: repository, operation: operation, key: key, version: version)
        let commands = (command.map { [$0] } ?? []) + [shared.announcement(message)]
        if await shared.run(commands, operation: operation.rawValue) != nil { shared.health.count(\.announced) }
    }

    private func encoded(_ key: Key) throws(DatastoreError) -> [UInt8] {
        do {
            return try key.encodedBytes()
        } catch {
            throw DatastoreError(.codingFailed, "Could not encode the key for the shared level", inner: error)
        }
    }
}
