import RDS
import Redis

/// One announcement on the invalidation stream: which replica changed which key of which
/// repository, and how. It carries the key and a version, never the body.
struct InvalidationMessage: Sendable, Equatable {
    /// What happened to the key.
    enum Operation: String, Sendable {
        /// A new entry was stored (a fetch, a revalidation, a write's answer).
        case stored
        /// The entry was removed (a purge, a write without an answer).
        case deleted
        /// Every entry of the repository was removed.
        case purgedAll = "purged_all"
    }

    /// The replica that made the change.
    var replica: String
    /// The repository's name.
    var repository: String
    /// What happened.
    var operation: Operation
    /// The key's encoded bytes (empty for ``Operation/purgedAll``).
    var key: [UInt8]
    /// The stored entry's version (see ``version(ofEncoded:)``; 0 when nothing was stored).
    var version: Int64

    /// The version of a stored entry: the checksum (XXH64) that ends its encoded bytes
    /// (``FileEntryFormat``), which covers its key, value, dates and validators, as a signed number.
    static func version(ofEncoded contents: [UInt8]) -> Int64 {
        Int64(bitPattern: FileEntryFormat.storedChecksum(ofEncoded: contents))
    }

    /// The version `entry` of `key` has when stored.
    static func version<Value: DatastoreCodable>(of entry: CacheEntry<Value>, keyBytes: [UInt8]) -> Int64? {
        guard let bytes = try? entry.value.encodedBytes() else { return nil }
        return version(ofEncoded: FileEntryFormat.encode(entry.withValue(bytes), keyBytes: keyBytes))
    }

    /// The stream fields, for `XADD`.
    var fields: [[UInt8]] {
        [
            Array("r".utf8), Array(replica.utf8), Array("p".utf8), Array(repository.utf8), Array("o".utf8),
            Array(operation.rawValue.utf8), Array("k".utf8), key, Array("v".utf8), Array(String(version).utf8),
        ]
    }

    /// The message in a stream entry, or `nil` for an entry that is not one.
    init?(_ entry: RedisStreamEntry) {
        guard let replica = entry["r"], let repository = entry["p"], let operation = entry["o"].flatMap(Operation.init),
            let key = entry.fields.first(where: { $0.name == "k" })?.value
        else { return nil }
        self.init(
            replica: replica, repository: repository, operation: operation, key: key,
            version: entry["v"].flatMap { Int64($0) } ?? 0)
    }

    /// Creates a message.
    init(replica: String, repository: String, operation: Operation, key: [UInt8], version: Int64) {
        self.replica = replica
        self.repository = repository
        self.operation = operation
        self.key = key
        self.version = version
    }
}
