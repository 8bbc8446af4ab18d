import Synchronization

/// The saves and deletes of a ``FileDatastore`` under way, counted by bucket of key digests, so
/// that a read can tell that no change to its key's file is queued and read it in place; the
/// last file such a read found missing, for the read of the same key that follows (the fast
/// path looks first, then the `async` read); and how many reads were answered in place or sent
/// to a queue.
final class FileChangesInFlight: Sendable {
    /// How many buckets the digests are spread over.
    static let bucketCount = 4096

    /// Everything the lock guards.
    private struct Buckets {
        /// The changes under way, by bucket.
        var underWay = [Int](repeating: 0, count: bucketCount)
        /// The changes begun so far, by bucket (wrapping): a read that saw the same count before
        /// and after knows that no change began meanwhile.
        var begun = [UInt32](repeating: 0, count: bucketCount)
        /// The file a read in place found missing last, its bucket and that bucket's `begun` then.
        var lastMissing: (path: EntryPath, bucket: Int, begun: UInt32)?
    }

    private let buckets = Mutex(Buckets())
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
    func begin(_ bucket: Int) {
        buckets.withLock {
            $0.underWay[bucket] += 1
            $0.begun[bucket] &+= 1
        }
    }

    /// Counts a change to a file of `bucket` as finished.
    func end(_ bucket: Int) { buckets.withLock { $0.underWay[bucket] -= 1 } }

    /// `true` when no change to a file of `bucket` is under way.
    func isQuiet(_ bucket: Int) -> Bool { quietMark(bucket) != nil }

    /// The count of changes begun in `bucket` when none is under way (for ``noteMissing(_:bucket:since:)``),
    /// `nil` while one is.
    func quietMark(_ bucket: Int) -> UInt32? {
        buckets.withLock { $0.underWay[bucket] == 0 ? $0.begun[bucket] : nil }
    }

    /// Remembers that a read found no file at `path` after ``quietMark(_:)`` gave `mark`, unless
    /// a change of its bucket began since (the file may be being written).
    func noteMissing(_ path: EntryPath, bucket: Int, since mark: UInt32) {
        buckets.withLock {
            guard $0.begun[bucket] == mark else { return }
            $0.lastMissing = (path, bucket, mark)
        }
    }

    /// `true`, once, when the last file found missing is `path` and no change of its bucket
    /// began since: it is missing still, and a read need not look again.
    func takeMissing(_ path: EntryPath) -> Bool {
        buckets.withLock {
            guard let missing = $0.lastMissing, missing.path == path else { return false }
            $0.lastMissing = nil
            return $0.begun[missing.bucket] == missing.begun
        }
    }

    /// Counts a read answered in place.
    func countReadInPlace() { inPlace.add(1, ordering: .relaxed) }

    /// Counts a read sent to its key's queue.
    func countReadOnQueue() { onQueue.add(1, ordering: .relaxed) }
}
