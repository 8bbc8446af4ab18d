import Foundation
import Dispatch
import Synchronization

extension FileDatastore {
    /// How long the first renewal of a batch waits for others before the batch is written: one
    /// wake-up of the maintenance queue writes every renewal that came meanwhile.
    static var renewalBatchWindow: DispatchTimeInterval { .milliseconds(1) }

    /// Keeps `entry`, a renewal of the entry stored for `key` or the first entry of a key (see
    /// ``Datastore/renew(_:for:)``), and returns without waiting for its write: a revalidation or
    /// a cold miss costs its caller no hop to a queue and back, and the renewals that come within
    /// ``renewalBatchWindow`` are written in one wake-up of the maintenance queue (each on its
    /// key's queue), a key renewed twice meanwhile once. Until written, the renewal is what ``get(_:)`` answers for the key; a
    /// save, delete or ``deleteAll()`` of the key supersedes it (it is then never written). A
    /// renewal whose write fails removes the key's file (an older entry never outlives its
    /// renewal) and counts as a failed save (``statistics``). When ``maxPendingRenewals`` other
    /// keys' renewals are pending, this is a ``save(_:for:)``: the caller waits.
    /// - Throws: ``DatastoreError`` (`codingFailed`) when the key cannot be encoded; a waited
    ///   save's errors.
    public func renew(_ entry: CacheEntry<Value>, for key: Key) async throws {
        let location = try writtenLocation(of: key)
        if !renewBehind(entry, at: location) { try await save(entry, at: location) }
    }

    /// ``renew(_:for:)`` without suspending, for a caller on the event loop: `true` when the
    /// renewal is kept to be written behind; `false`, with nothing changed, when it would be a
    /// waited save (``maxPendingRenewals`` reached) or the key cannot be encoded (``renew(_:for:)``
    /// then does or reports it).
    public func renewInPlace(_ entry: CacheEntry<Value>, for key: Key) -> Bool {
        guard let location = try? writtenLocation(of: key) else { return false }
        return renewBehind(entry, at: location)
    }

    /// ``renewInPlace(_:for:)`` for a revalidation (`entry` renews the stored value of `key`, as
    /// a “not modified” answer does), which writes nothing, returning `true`, when the write
    /// would buy little and `entry` stays fresh at least as long as the entry it renews
    /// (`previousExpiry`):
    /// - the renewed entry stays fresh for less than ``revalidationWriteInterval``: a read of
    ///   this level after that long (a restart, or the memory level letting the entry go) would
    ///   revalidate it anyway, so a key with a short `max-age` is never rewritten for a 304;
    /// - or the key's file was written (or a write of it accepted) less than the interval ago:
    ///   a key revalidated more often costs one write per interval, not one per revalidation.
    ///
    /// The file then keeps the same value, with the freshness, validators and header fields of
    /// its last write; the renewed entry lives in the memory level in front of this one. A read
    /// of this level may find it stale and revalidate it once more, and a stale copy served from
    /// it under stale-if-error carries its last write's headers. A renewal that shortens the
    /// freshness (a 304 with a smaller `max-age`), or of an entry the level in front does not
    /// hold, is always written: the file never stays fresh longer than the entry in front of it.
    /// A file of another value is never left: every change of a value is a save or a renewal.
    /// - Parameter previousExpiry: When the entry `entry` renews stops being fresh, as the level
    ///   in front of this one holds it; `nil` when it holds none.
    public func renewRevalidatedInPlace(
        _ entry: CacheEntry<Value>, for key: Key, renewing previousExpiry: Date?
    ) -> Bool {
        guard let previousExpiry, entry.expiresAt >= previousExpiry, revalidationWriteInterval > 0 else {
            return renewInPlace(entry, for: key)
        }
        let now = clock.now
        if entry.timeToLive(at: now) < revalidationWriteInterval { return true }
        if let writtenAt = writtenLocations.writtenAt(of: key), now.timeIntervalSince(writtenAt) < revalidationWriteInterval {
            return true
        }
        return renewInPlace(entry, for: key)
    }

    /// Keeps `entry` as the pending renewal of `location`'s file, scheduling the batch's write
    /// when it is the first; `false` when refused (``maxPendingRenewals`` other files pending).
    private func renewBehind(_ entry: CacheEntry<Value>, at location: Location) -> Bool {
        changesInFlight.begin(location.bucket)
        switch renewals.add(PendingRenewals.Renewal(entry: entry, location: location)) {
        case .refused:
            changesInFlight.end(location.bucket)
            return false
        case .replaced:
            changesInFlight.end(location.bucket)
        case .added(let firstOfBatch):
            guard firstOfBatch else { return true }
            renewalTimer.arm(after: Self.renewalBatchWindow) { self.writePendingRenewals() }
        }
        return true
    }

    /// The most renewals kept for writing later (see ``renew(_:for:)``).
    public var maxPendingRenewals: Int { renewals.limit }

    /// Writes the pending renewals now and waits until every write queued so far is done, and
    /// the evictions they started (for shutdown and tests).
    public func finishWrites() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            maintenanceQueue.async {
                self.writePendingRenewals()
                done.resume()
            }
        }
        for queue in queues {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in queue.async { done.resume() } }
        }
    }

    /// Writes the pending renewals, each on its key's queue and only if it is still pending
    /// there (not superseded meanwhile), the queues in parallel (creating a file can take most
    /// of a millisecond: one at a time, a stream of cold misses would wait for the batches);
    /// then evicts or re-measures when a write calls for it, and comes back at once for the
    /// renewals that came meanwhile (a steady stream of them never holds up an eviction). Runs
    /// on the maintenance queue, which waits for the batch. A batch of one renewal (a client
    /// asking one key at a time) is written with a plain `sync` on its queue: no group, no table
    /// of queues.
    func writePendingRenewals() {
        let paths = renewals.paths
        let tidying = Mutex((mustEvict: false, recreatedFolder: false))
        if paths.count == 1, let queue = renewals.queue(at: paths[0]) {
            queue.sync { writeRenewals(at: paths[...], tidying: tidying) }
        } else {
            var batches: [ObjectIdentifier: (queue: DispatchQueue, paths: [EntryPath])] = [:]
            for path in paths {
                guard let queue = renewals.queue(at: path) else { continue }
                batches[ObjectIdentifier(queue), default: (queue, [])].paths.append(path)
            }
            let written = DispatchGroup()
            for (queue, paths) in batches.values {
                queue.async(group: written) { self.writeRenewals(at: paths[...], tidying: tidying) }
            }
            written.wait()
        }
        let needed = tidying.withLock { $0 }
        if needed.mustEvict || needed.recreatedFolder { tidy(after: needed) }
        // A renewal added while this batch was written found it pending and scheduled nothing.
        if renewals.count > 0 { maintenanceQueue.async { self.writePendingRenewals() } }
    }

    /// Writes the renewals pending at `paths` that are still pending, and notes in `tidying`
    /// whether a write calls for an eviction or a re-measuring. Runs on the paths' key queue.
    private func writeRenewals(
        at paths: ArraySlice<EntryPath>, tidying: borrowing Mutex<(mustEvict: Bool, recreatedFolder: Bool)>
    ) {
        for path in paths {
            guard let renewal = renewals.take(at: path) else { continue }
            defer { changesInFlight.end(renewal.location.bucket) }
            do {
                let outcome = try write(renewal.entry, at: renewal.location)
                tidying.withLock {
                    $0.mustEvict = $0.mustEvict || outcome.mustEvict
                    $0.recreatedFolder = $0.recreatedFolder || outcome.recreatedFolder
                }
            } catch {
                _ = try? Self.remove(path.path, counted: true, in: budget)
            }
        }
    }

    /// Drops the pending renewal of `location`'s file, which a change about to be made
    /// supersedes. Call with the change counted in ``changesInFlight``.
    func dropPendingRenewal(at location: Location) {
        if let dropped = renewals.take(at: location.entryPath) { changesInFlight.end(dropped.location.bucket) }
    }
}
