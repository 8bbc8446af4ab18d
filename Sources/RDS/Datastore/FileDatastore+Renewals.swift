import Dispatch

extension FileDatastore {
    /// How long the first renewal of a batch waits for others before the batch is written: one
    /// wake-up of the maintenance queue writes every renewal that came meanwhile.
    static var renewalBatchWindow: DispatchTimeInterval { .milliseconds(1) }

    /// Keeps `entry`, a renewal of the entry stored for `key` or the first entry of a key (see
    /// ``Datastore/renew(_:for:)``), and returns without waiting for its write: a revalidation or
    /// a cold miss costs its caller no hop to a queue and back, and the renewals that come within ``renewalBatchWindow`` are written in
    /// one wake-up of the maintenance queue (each on its key's queue), a key renewed twice
    /// meanwhile once. Until written, the renewal is what ``get(_:)`` answers for the key; a
    /// save, delete or ``deleteAll()`` of the key supersedes it (it is then never written). A
    /// renewal whose write fails removes the key's file (an older entry never outlives its
    /// renewal) and counts as a failed save (``statistics``). When ``maxPendingRenewals`` other
    /// keys' renewals are pending, this is a ``save(_:for:)``: the caller waits.
    /// - Throws: ``DatastoreError`` (`codingFailed`) when the key cannot be encoded; a waited
    ///   save's errors.
    public func renew(_ entry: CacheEntry<Value>, for key: Key) async throws {
        let location = try writtenLocation(of: key)
        changesInFlight.begin(location.bucket)
        switch renewals.add(PendingRenewals.Renewal(entry: entry, location: location)) {
        case .refused:
            changesInFlight.end(location.bucket)
            try await save(entry, at: location)
        case .replaced:
            changesInFlight.end(location.bucket)
        case .added(let firstOfBatch):
            guard firstOfBatch else { return }
            maintenanceQueue.asyncAfter(deadline: .now() + Self.renewalBatchWindow) { self.writePendingRenewals() }
        }
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
    /// there (not superseded meanwhile); then evicts or re-measures when a write calls for it,
    /// and comes back at once for the renewals that came meanwhile (a steady stream of them
    /// never holds up an eviction). Runs on the maintenance queue.
    func writePendingRenewals() {
        var tidying = (mustEvict: false, recreatedFolder: false)
        for path in renewals.paths {
            guard let queue = renewals.renewal(at: path)?.location.queue else { continue }
            queue.sync {
                guard let renewal = renewals.take(at: path) else { return }
                defer { changesInFlight.end(renewal.location.bucket) }
                do {
                    let written = try write(renewal.entry, at: renewal.location)
                    tidying.mustEvict = tidying.mustEvict || written.mustEvict
                    tidying.recreatedFolder = tidying.recreatedFolder || written.recreatedFolder
                } catch {
                    _ = try? Self.remove(path.path, counted: true, in: budget)
                }
            }
        }
        if tidying.mustEvict || tidying.recreatedFolder { tidy(after: tidying) }
        // A renewal added while this batch was written found it pending and scheduled nothing.
        if renewals.count > 0 { maintenanceQueue.async { self.writePendingRenewals() } }
    }

    /// Drops the pending renewal of `location`'s file, which a change about to be made
    /// supersedes. Call with the change counted in ``changesInFlight``.
    func dropPendingRenewal(at location: Location) {
        if let dropped = renewals.take(at: location.entryPath) { changesInFlight.end(dropped.location.bucket) }
    }
}
