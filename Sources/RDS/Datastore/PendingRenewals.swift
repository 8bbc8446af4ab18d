import Dispatch
import Synchronization

/// The renewals a ``FileDatastore`` has accepted and not written yet (``FileDatastore/renew(_:for:)``):
/// the newest per entry file, at most ``limit``, written in batches by the datastore's
/// maintenance queue. A pending renewal is its file's newest change until it is taken to be
/// written, or removed by a save, delete or purge of its file (which then supersedes it).
final class PendingRenewals<Key: Hashable & Sendable & DatastoreCodable, Value: Sendable & DatastoreCodable>:
    Sendable
{
    /// One renewal: the entry and where it goes.
    struct Renewal: Sendable {
        let entry: CacheEntry<Value>
        let location: FileDatastore<Key, Value>.Location
    }

    /// What ``add(_:)`` did.
    enum Added: Equatable {
        /// Refused: ``limit`` renewals are pending (the caller saves and waits instead).
        case refused
        /// Replaced the pending renewal of the same file.
        case replaced
        /// Added for a file without one; `firstOfBatch` when nothing else was pending (the
        /// caller schedules the batch's write).
        case added(firstOfBatch: Bool)
    }

    private let renewals: Mutex<[EntryPath: Renewal]>
    /// The most renewals pending at once.
    let limit: Int

    /// Keeps at most `limit` renewals pending (none when `limit` ≤ 0). The table is made now,
    /// with room for a batch: the first renewal does not build it (nor look up its type's
    /// conformances, which costs a scan of the process's conformance records the first time).
    init(limit: Int) {
        self.limit = limit
        renewals = Mutex([EntryPath: Renewal](minimumCapacity: min(max(0, limit), 64)))
    }

    /// The number of renewals pending.
    var count: Int { renewals.withLock { $0.count } }

    /// Makes `renewal` its file's pending renewal, unless ``limit`` are pending for other files.
    func add(_ renewal: Renewal) -> Added {
        renewals.withLock { renewals in
            let path = renewal.location.entryPath
            if renewals[path] != nil {
                renewals[path] = renewal
                return .replaced
            }
            guard renewals.count < limit else { return .refused }
            renewals[path] = renewal
            return .added(firstOfBatch: renewals.count == 1)
        }
    }

    /// The pending renewal of the file at `path`, if any (it may be another key's).
    func renewal(at path: EntryPath) -> Renewal? { renewals.withLock { $0[path] } }

    /// The queue of the file at `path` when a renewal of it is pending: the renewal itself is
    /// not copied out (and destroyed) to tell it.
    func queue(at path: EntryPath) -> DispatchQueue? { renewals.withLock { $0[path]?.location.queue } }

    /// Removes and returns the pending renewal of the file at `path`: to write it, or because
    /// a change of the file supersedes it.
    func take(at path: EntryPath) -> Renewal? { renewals.withLock { $0.removeValue(forKey: path) } }

    /// The files with a pending renewal.
    var paths: [EntryPath] { renewals.withLock { Array($0.keys) } }

    /// Removes and returns every pending renewal.
    func takeAll() -> [Renewal] {
        renewals.withLock { renewals in
            defer { renewals = [:] }
            return Array(renewals.values)
        }
    }
}
