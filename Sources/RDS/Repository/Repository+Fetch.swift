import Foundation

extension Repository {
    /// One fetch of `key`: ask the service (within the fetch deadline), store what it answers, and
    /// say what the waiters get and what subscribers see. With a ``FetchCoordinator``, only the
    /// process holding the key's lease asks the service; the others wait for its answer.
    /// - Parameters:
    ///   - flightID: The flight this fetch runs in; a superseded flight does not store its answer.
    ///   - entry: The entry the read started from, used for revalidation and stale-if-error.
    ///   - validators: Set for a conditional request.
    ///   - recheckStore: Look for a fresh entry first (one stored by a fetch that ended, or a write
    ///     made, since the caller's lookup; the caller passes `false` when nothing can have been).
    ///   - allowStale: Serve `entry` when the service fails and the policy allows it.
    func fetch(
        _ key: Key, flightID: UInt64, entry: CacheEntry<Value>?, validators: Validators?, recheckStore: Bool,
        allowStale: Bool
    ) async -> FlightOutcome<Value> {
        // Whether an entry may be stored for `key`: only then does an answer that may not be
        // stored have one to drop (an uncacheable resource then costs no datastore write). With a
        // coordinator, other processes may store into a shared level at any time: it may.
        var mayHoldEntry = entry != nil || store.coordinator != nil
        if recheckStore {
            // A fetch of this process that ended since the lookup stored its answer in memory
            // first: peek there when the datastore can (no I/O). Another process may have stored
            // into a shared level: read again then.
            let stored: CacheEntry<Value>?
            if store.coordinator == nil, let peekable = store.peekable {
                stored = peekable.peek(key)
            } else {
                stored = await storedEntry(for: key)
            }
            if let stored, stored.isFresh(at: store.clock.now) { return Self.cachedOutcome(stored) }
            mayHoldEntry = mayHoldEntry || stored != nil
        }
        // One deadline for the whole fetch: waiting for another process's fetch counts too.
        let deadline = store.clock.now.addingTimeInterval(policy.fetchDeadline)
        var release: (@Sendable () async -> Void)?
        switch await lease(for: key, until: deadline) {
        case .granted(let releaseLease):
            release = releaseLease
        case .waited:
            // Another process fetched: its answer, newer than what this fetch started from, is this fetch's.
            if let stored = await storedEntry(for: key), stored.storedAt > (entry?.storedAt ?? .distantPast),
                stored.isFresh(at: store.clock.now)
            {
                return Self.cachedOutcome(stored)
            }
        case .uncoordinated, nil:
            break
        }
        let outcome = await fetchFromService(
            key, claim: .flight(flightID), entry: entry, validators: validators, allowStale: allowStale, deadline: deadline,
            droppingPrevious: mayHoldEntry)
        await release?()
        return outcome
    }

    /// The coordinator's decision for fetching `key`, `nil` without one; a wait that outlasts
    /// `deadline` ends as `.waited` (the store is read again, then the service asked).
    private func lease(for key: Key, until deadline: Date) async -> FetchLease? {
        guard let coordinator = store.coordinator else { return nil }
        return (try? await DeadlineRace.run(until: deadline, on: store.deadlines) { await coordinator.acquire(key) })
            ?? .waited
    }

    /// The outcome of a fetch answered by a fresh stored entry instead of the service.
    private static func cachedOutcome(_ stored: CacheEntry<Value>) -> FlightOutcome<Value> {
        let answer = RepositoryAnswer(value: stored.value, entry: stored, cacheStatus: .hit)
        return FlightOutcome(result: .success(answer), state: .loaded(stored.value, origin: .cache, at: stored.storedAt))
    }

    /// Asks the service (until `deadline`) and stores its answer; `claim`, `droppingPrevious` and
    /// `renewingPassMark` as for
    /// ``keep(_:for:at:claim:dropOnFailure:droppingPrevious:renewing:revalidated:renewingPassMark:)``.
    func fetchFromService(
        _ key: Key, claim: StoreClaim, entry: CacheEntry<Value>?, validators: Validators?, allowStale: Bool,
        deadline: Date, droppingPrevious: Bool, renewingPassMark: Bool = true
    ) async -> FlightOutcome<Value> {
        let response: ServiceResponse<Value>
        do {
            // A lease wait may have used the whole deadline already.
            guard store.clock.now < deadline else { throw FetchDeadline.Exceeded() }
            response = try await service.get(
                key, ifChangedFrom: validators, within: FetchDeadline(date: deadline, timers: store.deadlines))
        } catch {
            return failure(repositoryError(error, key), key: key, entry: allowStale ? entry : nil)
        }
        let now = store.clock.now
        let renewed: Fetched<Value>
        switch response {
        case .fetched(let fetched):
            // Nothing stored for the key: its first entry may be written behind, as a renewal is.
            let stored = await keep(
                fetched, for: key, at: now, claim: claim, droppingPrevious: droppingPrevious,
                renewing: !droppingPrevious, renewingPassMark: renewingPassMark)
            let answer = RepositoryAnswer(
                value: fetched.value, entry: stored, cacheStatus: stored == nil ? .bypass : .miss)
            return FlightOutcome(result: .success(answer), state: .loaded(fetched.value, origin: .service, at: now))
        case .notModified(let freshness, let newValidators):
            guard let entry else { return notModifiedWithoutEntry(key) }
            let merged = Validators(
                etag: newValidators.etag ?? entry.validators.etag,
                lastModified: newValidators.lastModified ?? entry.validators.lastModified)
            renewed = Fetched(value: entry.value, freshness: freshness, validators: merged)
        case .notModifiedRenewing(let renew):
            // Only the stored value is renewed: the entry is not unwrapped (copied) for it.
            guard let value = entry?.value else { return notModifiedWithoutEntry(key) }
            renewed = renew(value)
        }
        let stored = await keep(renewed, for: key, at: now, claim: claim, renewing: true, revalidated: true)
        let answer = RepositoryAnswer(
            value: renewed.value, entry: stored, cacheStatus: stored == nil ? .bypass : .revalidated)
        return FlightOutcome(result: .success(answer), state: .loaded(renewed.value, origin: .revalidated, at: now))
    }

    /// The failure of a fetch the service answered “not modified” although nothing was stored to ask about.
    private func notModifiedWithoutEntry(_ key: Key) -> FlightOutcome<Value> {
        let error = ServiceError(.badResponse, "The service answered “not modified” to an unconditional request")
        return failure(repositoryError(error, key), key: key, entry: nil)
    }

    /// Stores `fetched` when the upstream allows it and returns the stored entry; drops the key
    /// (and returns `nil`) when it does not. A failing datastore is logged, never thrown:
    /// - a failing second level (``DatastoreErrorKind/secondLevelFailed``) is a degraded success:
    ///   the first level holds the entry, which is returned (a disk fault never turns caching off);
    /// - any other failure stores nothing and returns `nil`; the previous entry stays for a fetch
    ///   (stale-if-error may still need it) and is dropped for a write (`dropOnFailure`), whose
    ///   answer made it wrong.
    /// - Parameters:
    ///   - claim: The fetch storing the answer; when a write has superseded it, nothing is
    ///     stored (the write's answer is newer) and `nil` is returned. A write that comes while
    ///     the answer is being stored waits for it, and stores its own answer after. `nil` for a
    ///     write's own answer.
    ///   - droppingPrevious: `false` when nothing was stored for `key` as the fetch began: an
    ///     answer that may not be stored then leaves the datastore alone.
    ///   - renewing: Store with ``PeekableDatastore/renewInPlace(_:for:)`` when the levels can,
    ///     else with ``Datastore/renew(_:for:)``, which a level may write behind:
    ///     for a renewal of the stored entry (a “not modified” answer), or the first answer of a
    ///     key nothing was stored for (`droppingPrevious` is `false`; a cold miss then does not
    ///     wait for the disk).
    ///   - revalidated: `true` for the renewal of a “not modified” answer (the stored value
    ///     renewed, never a first entry): stored with
    ///     ``PeekableDatastore/renewRevalidatedInPlace(_:for:)`` when the levels can.
    ///   - renewingPassMark: `false` for a read of a key marked hit-for-pass (``PassMarks``): an
    ///     answer that may not be stored leaves its mark as it is, lasting ``PassMarks/window``
    ///     from the answer that set it (as Varnish's hit-for-pass objects do), so a pass-through
    ///     costs no write of the marks' table.
    func keep(
        _ fetched: Fetched<Value>, for key: Key, at now: Date, claim: StoreClaim? = nil,
        dropOnFailure: Bool = false, droppingPrevious: Bool = true, renewing: Bool = false, revalidated: Bool = false,
        renewingPassMark: Bool = true
    ) async -> CacheEntry<Value>? {
        let entry = policy.entry(
            for: fetched.value, freshness: fetched.freshness, validators: fetched.validators, at: now)
        if entry != nil {
            store.passMarks.clear(key)
        } else if store.coordinator == nil, renewingPassMark {
            // Other processes may store into a shared level at any time: no key is passed there.
            store.passMarks.mark(key, at: now)
        }
        guard entry != nil || droppingPrevious else { return nil }
        if let claim {
            guard store.flights.beginStore(key, claim: claim) else { return nil }
        }
        defer { if claim != nil { store.flights.endStore(key) } }
        do {
            if let entry {
                // A renewal the levels take without suspending (memory, a disk level writing
                // behind) costs no async call per level.
                if renewing, renewedInPlace(entry, for: key, revalidated: revalidated) { return entry }
                try await store.datastore.save(entry, for: key, renewing: renewing)
                return entry
            }
            try await store.datastore.delete(key)
        } catch let error as DatastoreError where error.kind == .secondLevelFailed {
            log(.warning, "datastore_degraded", key, error: error)
            return entry
        } catch {
            log(.warning, "datastore_write_failed", key, error: error)
            if dropOnFailure { try? await store.datastore.delete(key) }
        }
        return nil
    }

    /// `true` when the levels renewed `entry` without suspending (see
    /// ``PeekableDatastore/renewInPlace(_:for:)``), as a revalidation's renewal when `revalidated`
    /// (``PeekableDatastore/renewRevalidatedInPlace(_:for:)``).
    private func renewedInPlace(_ entry: CacheEntry<Value>, for key: Key, revalidated: Bool) -> Bool {
        guard let peekable = store.peekable else { return false }
        return revalidated ? peekable.renewRevalidatedInPlace(entry, for: key) : peekable.renewInPlace(entry, for: key)
    }

    /// The outcome of a failed fetch: the stale (or, network-first, fresh) `entry` with the error
    /// attached when the policy allows serving it, otherwise the error.
    private func failure(_ error: RepositoryError, key: Key, entry: CacheEntry<Value>?) -> FlightOutcome<Value> {
        log(.warning, "fetch_failed", key, error: error)
        let now = store.clock.now
        guard let entry, policy.canServeIfError(entry, at: now) else {
            return FlightOutcome(result: .failure(error), state: .failed(error, cached: nil))
        }
        let status: CacheStatus = entry.isFresh(at: now) ? .hit : .stale
        let answer = RepositoryAnswer(value: entry.value, entry: entry, cacheStatus: status, error: error)
        return FlightOutcome(result: .success(answer), state: .failed(error, cached: entry.value))
    }

    /// `error` as the ``RepositoryError`` a caller sees.
    func repositoryError(_ error: any Error, _ key: Key) -> RepositoryError {
        switch error {
        case let error as RepositoryError:
            return error
        case is FetchDeadline.Exceeded:
            return RepositoryError(
                .deadlineExceeded, "The fetch did not finish within \(policy.fetchDeadline) s", details: details(key))
        case is CancellationError:
            return RepositoryError(.cancelled, "The fetch was cancelled", details: details(key), inner: error)
        default:
            return RepositoryError(.fetchFailed, "Could not fetch the resource", details: details(key), inner: error)
        }
    }

    /// Logs `event` for `key`, with the error's code when there is one.
    func log(_ level: LogLevel, _ event: String, _ key: Key, error: (any Error)? = nil) {
        var fields: [String: LogValue] = ["repository": .string(name), "key": .string(String(describing: key))]
        if let error { fields["error"] = .string(ErrorChain(error).links.map(\.code).joined(separator: " > ")) }
        store.logger.log(level, event, fields)
    }
}
