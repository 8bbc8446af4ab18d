import Synchronization

/// The saves and deletes of a ``FileDatastore`` under way, counted by bucket of key digests, so
/// that a read can tell that no change to its key's file is queued and read it in place; and how
/// many reads were answered in place or sent to a queue.
final class FileChangesInFlight: Sendable {
    /// How many buckets the digests are spread over.
    static let bucketCount = 4096

    private let counts = Mutex<[Int]>(Array(repeating: 0, count: bucketCount))
    private let inPlace = Atomic<Int>(0)
    private let onQueue = Atomic<Int>(0)

    /// The reads answered in place, without a hop to a queue, since the datastore was opened.
    var readsInPlace: Int { inPlace.load(ordering: .relaxed) }

    /// The reads sent to their key's queue (counted when sent), since the datastore was opened.
    var readsOnQueue: Int { onQueue.load(ordering: .relaxed) }

    /// The bucket of a key whose file name comes from `digest`.
    static func bucket(ofDigest digest: [UInt8]) -> Int {
        guard digest.count >= 2 else { return Int(digest.first ?? 0) }
        return (Int(digest[0]) << 8 | Int(digest[1])) % bucketCount
    }

    /// Counts a change to a file of `bucket` as started.
    func begin(_ bucket: Int) { counts.withLock { $0[bucket] += 1 } }

    /// Counts a change to a file of `bucket` as finished.
    func end(_ bucket: Int) { counts.withLock { $0[bucket] -= 1 } }

    /// `true` when no change to a file of `bucket` is under way.
    func isQuiet(_ bucket: Int) -> Bool { counts.withLock { $0[bucket] == 0 } }

    /// Counts a read answered in place.
    func countReadInPlace() { inPlace.add(1, ordering: .relaxed) }

    /// Counts a read sent to its key's queue.
    func countReadOnQueue() { onQueue.add(1, ordering: .relaxed) }
}
