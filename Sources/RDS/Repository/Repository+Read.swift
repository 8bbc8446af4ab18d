extension Repository {
    /// Reads `key` as the policy and `intent` decide.
    ///
    /// Concurrent reads that need the service share one fetch (single-flight), but for a key whose
    /// last answer could not be stored (hit-for-pass, see ``PassMarks``) that nobody watches: each
    /// such read asks the service for itself (an uncacheable answer is never shared between
    /// callers) and publishes no state (see ``passThrough(_:)``). A fetch that passes
    /// ``RepositoryPolicy/fetchDeadline`` fails with ``RepositoryErrorKind/deadlineExceeded``.
    /// - Parameter passing: The key's hit-for-pass mark as ``cachedAnswer(for:passing:)`` just
    ///   reported it, so that it is not looked up again; `nil` looks it up.
    /// - Throws: ``RepositoryError`` wrapping the ``ServiceError`` behind it, when nothing usable is
    ///   stored; ``RepositoryErrorKind/cancelled`` when the calling task is cancelled.
    public func get(_ key: Key, intent: ReadIntent = .cached, passing: Bool? = nil) async throws -> RepositoryAnswer<Value> {
        if intent == .cached, passing ?? store.passMarks.isMarked(key, at: store.clock.now) {
            // The last answer could not be stored: nothing to look up.
            if !store.broadcasters.isWatched(key) { return try await passThrough(key) }
            return try await store.flights.join(key, previous: nil) { flight in
                await fetch(key, flightID: flight.id, entry: nil, validators: nil, recheckStore: false, allowStale: false)
            }
        }
        // What this process's fetches and writes have changed so far, read before the lookup: a
        // fetch it starts need not look again when nothing has changed since. With a coordinator,
        // other processes may store into a shared level at any time: it always looks again.
        let lookedUpAt = store.coordinator == nil ? store.flights.changeCount : nil
        // The memory level first, without suspending: what the datastore's `get` answers first
        // too, and where a read that came past the fast path (a stale entry) nearly always finds it.
        // (The peeked entry moved, not copied: each copy of an optional entry runs the runtime's
        // generic witnesses, ~450 instructions.)
        let peeked = store.peekable?.peek(key)
        let inMemory = peeked != nil
        let entry = inMemory ? consume peeked : await storedEntry(for: key)
        switch ReadPlan.make(entry: entry, at: store.clock.now, policy: policy, intent: intent) {
        case .serve(let entry, let status, let refreshInBackground):
            if refreshInBackground { startBackgroundFetch(key, entry: entry) }
            return RepositoryAnswer(value: entry.value, entry: entry, cacheStatus: status)
        case .fetch(let validators):
            let recheck = intent == .cached && policy.mode == .cacheFirst
            // The memory level's entry just read is the key's resting state: not read again.
            let resting = inMemory ? RepositoryStore<Key, Value>.restingState(holding: entry) : nil
            return try await store.flights.join(
                key, previous: entry?.value, restingState: resting, lookedUpAt: lookedUpAt
            ) { flight in
                await fetch(
                    key, flightID: flight.id, entry: entry, validators: validators,
                    recheckStore: recheck && flight.storeChangedSinceLookup, allowStale: intent != .reload)
            }
        }
    }

    /// One read of a hit-for-pass key that nobody watches: the service's answer goes to this caller
    /// alone, outside the single-flight table, and no `.loading` or `.loaded` state is published
    /// (nobody would see it). An answer that may be stored now is stored and ends the mark, unless
    /// a write came meanwhile; one that may not leaves the mark to expire ``PassMarks/window``
    /// after the answer that set it (then one read looks the key up, and marks it again). A failure is published as any fetch's is (`.loading`, then
    /// `.failed`), so ``state(of:)`` reports it; a cancelled read publishes nothing.
    private func passThrough(_ key: Key) async throws -> RepositoryAnswer<Value> {
        let claim = StoreClaim.noWriteSince(store.flights.writeCount)
        let outcome = await fetchFromService(
            key, claim: claim, entry: nil, validators: nil, allowStale: false,
            deadline: store.clock.now.addingTimeInterval(policy.fetchDeadline), droppingPrevious: false,
            renewingPassMark: false)
        // The result taken apart once (matching it, then getting it, copied the answer twice).
        switch outcome.result {
        case .success(let answer):
            return answer
        case .failure(let error):
            if error.kind != .cancelled {
                store.broadcasters.publish(.loading(previous: nil), for: key)
                store.broadcasters.publish(outcome.state, for: key)
            }
            throw error
        }
    }

    /// A fresh hit answered synchronously from the datastore's in-memory level (or from a level
    /// below that reads it without waiting, ``PeekableDatastore/peekBelow(_:)``), or `nil` when the
    /// datastore cannot peek, holds nothing fresh for `key` so, or the policy is network-first.
    /// Starts a background refresh when refresh-ahead is due.
    ///
    /// A key that is not in memory and is marked hit-for-pass reads no level below
    /// (``get(_:intent:passing:)`` reads none for it either). `passing` is set to what the look-up
    /// learned of the mark, for the read that follows: `true` when the key is marked, `false`
    /// when nothing is in memory for it and it is not; it is left alone when the mark was not
    /// looked at (an entry was found, or the datastore cannot peek).
    public func cachedAnswer(for key: Key, passing: inout Bool?) -> RepositoryAnswer<Value>? {
        guard let peekable = store.peekable else { return nil }
        let entry: CacheEntry<Value>
        if let peeked = peekable.peek(key) {
            entry = peeked
        } else {
            let marked = store.passMarks.isMarked(key, at: store.clock.now)
            passing = marked
            guard !marked, let below = peekable.peekBelow(key) else { return nil }
            entry = below
        }
        // The plan's hit, decided without making the plan: a plan holds a copy of the entry.
        let now = store.clock.now
        guard ReadPlan.servesHit(entry, at: now, policy: policy) else { return nil }
        if policy.isRefreshAheadDue(entry, at: now) { startBackgroundFetch(key, entry: entry) }
        return RepositoryAnswer(value: entry.value, entry: entry, cacheStatus: .hit)
    }

    /// Fetches `key` from the service unconditionally and returns the new value (a forced refresh).
    /// Joins a fetch of `key` already under way.
    /// - Throws: ``RepositoryError`` when the service fails; no stale value stands in.
    public func refresh(_ key: Key) async throws -> RepositoryAnswer<Value> {
        try await get(key, intent: .reload)
    }

    /// Starts a forced refresh of `key` and returns at once; subscribers see `.loading` and then
    /// `.loaded` or `.failed`. Does nothing when a fetch of `key` is already under way.
    public func refreshInBackground(_ key: Key) {
        Task {
            let entry = await storedEntry(for: key)
            store.flights.startInBackground(key, previous: entry?.value) { flight in
                await fetch(
                    key, flightID: flight.id, entry: entry, validators: nil, recheckStore: false, allowStale: false)
            }
        }
    }

    /// Loads every key in `keys` (at most eight at a time), as a normal read would.
    /// - Returns: One result per key, in the order of `keys`.
    public func warmUp(_ keys: [Key]) async -> [WarmUpResult] {
        await withTaskGroup(of: (Int, WarmUpResult).self) { group in
            var results = [WarmUpResult?](repeating: nil, count: keys.count)
            for (index, key) in keys.enumerated() {
                if index >= 8, let (done, result) = await group.next() { results[done] = result }
                group.addTask { (index, await warmUpResult(for: key)) }
            }
            for await (done, result) in group { results[done] = result }
            return results.compactMap { $0 }
        }
    }

    private func warmUpResult(for key: Key) async -> WarmUpResult {
        do {
            let answer = try await get(key)
            return WarmUpResult(key: String(describing: key), outcome: .success(answer.cacheStatus))
        } catch {
            return WarmUpResult(key: String(describing: key), outcome: .failure(repositoryError(error, key)))
        }
    }

    /// The stored entry for `key`; a failing datastore is logged and read as a miss.
    func storedEntry(for key: Key) async -> CacheEntry<Value>? {
        do {
            return try await store.datastore.get(key)
        } catch {
            log(.warning, "datastore_read_failed", key, error: error)
            return nil
        }
    }

    /// Starts one background revalidation of `entry` (stale-while-revalidate, refresh-ahead).
    func startBackgroundFetch(_ key: Key, entry: CacheEntry<Value>) {
        let validators = entry.validators.isEmpty ? nil : entry.validators
        store.flights.startInBackground(key, previous: entry.value) { flight in
            await fetch(
                key, flightID: flight.id, entry: entry, validators: validators, recheckStore: false, allowStale: true)
        }
    }
}
