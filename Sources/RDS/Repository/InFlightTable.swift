import Synchronization

/// The single-flight table of one repository: at most one fetch per key, shared by every caller.
///
/// The first caller of ``join(_:previous:operation:)`` for a key starts the fetch in a task of its
/// own (one its ``TaskPlacement/scope`` keeps, or a new one) and publishes `.loading`; later callers wait for the same result. Waiters are continuations,
/// resumed once when the fetch ends, so nobody polls. A waiter that goes away (task cancelled)
/// gets ``RepositoryErrorKind/cancelled`` at once; the fetch is cancelled only when its last
/// waiter has gone, and a background fetch is never cancelled. Starting, ending and cancelling a
/// fetch, and the states published for them, happen under one lock, so subscribers see them in order.
/// A successful write supersedes the fetch under way for its key: the fetch then neither stores
/// nor publishes its (older) answer, though its waiters still get it. A fetch already storing its
/// answer when the write comes is let finish first: ``supersede(_:)`` waits for it (suspended, no
/// lock held), so the write's answer is always stored last.
final class InFlightTable<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    typealias Answer = RepositoryAnswer<Value>
    /// A fetch; its argument identifies the flight (for ``beginStore(_:claim:)``) and tells whether
    /// the store may have changed since its caller's lookup.
    typealias Operation = @Sendable (_ start: FlightStart) async -> FlightOutcome<Value>
    /// Resumed exactly once: whoever removes it from its flight under the lock resumes it.
    private typealias Waiter = UnsafeContinuation<Answer, any Error>
    private typealias Writer = CheckedContinuation<Void, Never>

    private struct Flight {
        let id: UInt64
        let stateBefore: ResourceState<Value>
        let cancellable: Bool
        var superseded = false
        var waiters = FlightWaiters<Waiter>()
        var task: (any PlacedTask)?
    }

    /// The fetch answers being stored for one key, and the writes waiting for them to be done.
    private struct Stores {
        var count = 0
        var writers: [Writer] = []
    }

    private struct Table {
        var flights: [Key: Flight] = [:]
        var stores: [Key: Stores] = [:]
        var nextID: UInt64 = 0
        /// Callers that joined a fetch already under way, since the table was made.
        var coalescedWaiters = 0
        /// Writes that have superseded their key's fetches, since the table was made.
        var writes: UInt64 = 0
        /// Fetch answers stored (``endStore(_:)``, any key), since the table was made.
        var storesEnded: UInt64 = 0

        /// Fetch answers stored and writes begun so far: unchanged, none of them stored meanwhile.
        var changes: UInt64 { storesEnded &+ writes }

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }
    }

    private let table = Mutex(Table())
    private let broadcasters: StateBroadcasterRegistry<Key, Value>
    private let restingState: @Sendable (Key) -> ResourceState<Value>

    /// Creates a table publishing through `broadcasters`; `restingState` gives the state of a key
    /// without a broadcaster.
    init(
        broadcasters: StateBroadcasterRegistry<Key, Value>,
        restingState: @escaping @Sendable (Key) -> ResourceState<Value>
    ) {
        self.broadcasters = broadcasters
        self.restingState = restingState
    }

    /// How many callers have joined a fetch already under way instead of starting one.
    var coalescedWaiters: Int { table.withLock { $0.coalescedWaiters } }

    /// The number of callers waiting for the fetch of `key`.
    func waiterCount(for key: Key) -> Int { table.withLock { $0.flights[key]?.waiters.count ?? 0 } }

    /// Marks the fetch of `key` under way, if any, as superseded by a write, then waits until the
    /// fetch answers already being stored for `key` are stored, so the caller's store comes last.
    func supersede(_ key: Key) async {
        await withCheckedContinuation { (writer: Writer) in
            let waits: Bool = table.withLock { table in
                table.writes += 1
                table.flights[key]?.superseded = true
                guard table.stores[key] != nil else { return false }
                table.stores[key]?.writers.append(writer)
                return true
            }
            if !waits { writer.resume() }
        }
    }

    /// How many fetch answers have been stored and writes begun so far (of any key): read before
    /// a lookup and handed to ``join(_:previous:restingState:lookedUpAt:operation:)``, so that a
    /// flight started with nothing changed since does not look the key up again
    /// (``FlightStart/storeChangedSinceLookup``).
    var changeCount: UInt64 { table.withLock { $0.changes } }

    /// How many writes have superseded fetches so far: a fetch outside the table reads it as it
    /// begins, for ``StoreClaim/noWriteSince(_:)``.
    var writeCount: UInt64 { table.withLock { $0.writes } }

    /// Starts storing a fetch's answer for `key`, unless a write has superseded the fetch (or its
    /// flight has ended): then returns `false` and the answer must not be stored. A fetch outside
    /// the table (``StoreClaim/noWriteSince(_:)``) is refused after a write of any key, which errs
    /// on the safe side. After `true`, call ``endStore(_:)`` once the datastore call is done; a
    /// write waits for it meanwhile.
    func beginStore(_ key: Key, claim: StoreClaim) -> Bool {
        table.withLock { table in
            switch claim {
            case .flight(let flightID):
                guard let flight = table.flights[key], flight.id == flightID, !flight.superseded else { return false }
            case .noWriteSince(let writes):
                guard table.writes == writes else { return false }
            }
            table.stores[key, default: Stores()].count += 1
            return true
        }
    }

    /// Ends a store begun with ``beginStore(_:claim:)``, resuming the writes that waited for it.
    func endStore(_ key: Key) {
        let writers: [Writer] = table.withLock { table in
            table.storesEnded &+= 1
            guard var stores = table.stores.removeValue(forKey: key) else { return [] }
            stores.count -= 1
            guard stores.count <= 0 else {
                table.stores[key] = stores
                return []
            }
            return stores.writers
        }
        for writer in writers { writer.resume() }
    }

    /// The number of writes of `key` waiting for a fetch answer to be stored first (for tests).
    func writersWaiting(for key: Key) -> Int { table.withLock { $0.stores[key]?.writers.count ?? 0 } }

    /// `true` while a fetch of `key` is under way.
    func isFetching(_ key: Key) -> Bool { table.withLock { $0.flights[key] != nil } }

    /// Waits for the fetch of `key`, starting it with `operation` when none is under way.
    /// - Parameters:
    ///   - previous: The value held before the fetch, published as `.loading(previous:)`.
    ///   - restingState: The key's resting state when the caller has just read it (from the
    ///     memory level); `nil` to have it read, should a fetch start.
    ///   - lookedUpAt: ``changeCount`` read before the caller looked the key up, if it did.
    /// - Throws: The fetch's ``RepositoryError``, or ``RepositoryErrorKind/cancelled`` when the
    ///   calling task is cancelled first.
    func join(
        _ key: Key, previous: Value?, restingState: ResourceState<Value>? = nil, lookedUpAt: UInt64? = nil,
        operation: @escaping Operation
    ) async throws -> Answer {
        let waiterID = table.withLock { $0.makeID() }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (waiter: Waiter) in
                let cancelled: Bool = table.withLock { table in
                    if Task.isCancelled { return true }
                    if table.flights[key] != nil {
                        table.coalescedWaiters += 1
                        table.flights[key]?.waiters.add(waiter, id: waiterID)
                    } else {
                        var flight = start(
                            key, previous: previous, restingState: restingState, lookedUpAt: lookedUpAt,
                            cancellable: true, operation: operation, in: &table)
                        flight.waiters.add(waiter, id: waiterID)
                        table.flights[key] = flight
                    }
                    return false
                }
                if cancelled { waiter.resume(throwing: Self.cancellation(of: key)) }
            }
        } onCancel: {
            leave(key, waiterID: waiterID)
        }
    }

    /// Starts a background fetch of `key` unless one is under way; nobody waits for it and it is
    /// never cancelled by callers leaving.
    /// - Returns: `true` when a fetch was started.
    @discardableResult
    func startInBackground(_ key: Key, previous: Value?, operation: @escaping Operation) -> Bool {
        table.withLock { table in
            guard table.flights[key] == nil else { return false }
            table.flights[key] = start(
                key, previous: previous, restingState: nil, lookedUpAt: nil, cancellable: false, operation: operation,
                in: &table)
            return true
        }
    }

    /// A new flight of `key`: `.loading` published and its fetch started. The caller puts it in
    /// the table under the same lock (before the fetch can look for it), with its first waiter:
    /// one table lookup instead of one per field set.
    private func start(
        _ key: Key, previous: Value?, restingState resting: ResourceState<Value>?, lookedUpAt: UInt64?,
        cancellable: Bool, operation: @escaping Operation, in table: inout Table
    ) -> Flight {
        let id = table.makeID()
        let flightStart = FlightStart(
            id: id, storeChangedSinceLookup: lookedUpAt.map { $0 != table.changes } ?? true)
        let stateBefore = broadcasters.current(of: key) ?? resting ?? restingState(key)
        broadcasters.publish(.loading(previous: previous), for: key)
        let task = TaskPlacement.start {
            let outcome = await operation(flightStart)
            self.finish(key, flightID: id, outcome: outcome)
        }
        return Flight(id: id, stateBefore: stateBefore, cancellable: cancellable, task: task)
    }

    private func finish(_ key: Key, flightID: UInt64, outcome: FlightOutcome<Value>) {
        let waiters: FlightWaiters<Waiter>? = table.withLock { table in
            guard let flight = table.flights.removeValue(forKey: key) else { return nil }
            guard flight.id == flightID else {
                table.flights[key] = flight  // a later flight of the key: not this one to end
                return nil
            }
            if !flight.superseded { broadcasters.publish(outcome.state, for: key) }
            return flight.waiters
        }
        waiters?.forEach { $0.resume(with: outcome.result.mapError { $0 }) }
    }

    private func leave(_ key: Key, waiterID: UInt64) {
        let waiter: Waiter? = table.withLock { table in
            guard var flight = table.flights[key], let waiter = flight.waiters.remove(id: waiterID) else {
                return nil
            }
            if flight.waiters.isEmpty && flight.cancellable {
                table.flights[key] = nil
                flight.task?.cancel()
                broadcasters.announce(.canceled, for: key)
                broadcasters.publish(flight.stateBefore, for: key)
            } else {
                table.flights[key] = flight
            }
            return waiter
        }
        waiter?.resume(throwing: Self.cancellation(of: key))
    }

    /// Cancels the fetch of `key`, if any, whoever waits for it (a background one too): its
    /// subscribers see ``TransitionEvent/canceled`` then the state it started from, and its
    /// waiters get `error`. The fetch neither stores nor publishes its answer.
    /// - Returns: `true` when a fetch was cancelled.
    func cancel(_ key: Key, with error: RepositoryError) -> Bool {
        let waiters: FlightWaiters<Waiter>? = table.withLock { table in
            guard let flight = table.flights.removeValue(forKey: key) else { return nil }
            flight.task?.cancel()
            broadcasters.announce(.canceled, for: key)
            broadcasters.publish(flight.stateBefore, for: key)
            return flight.waiters
        }
        waiters?.forEach { $0.resume(throwing: error) }
        return waiters != nil
    }

    private static func cancellation(of key: Key) -> RepositoryError {
        RepositoryError(
            .cancelled, "The caller stopped waiting", details: ["key": String(describing: key)],
            inner: CancellationError())
    }
}
