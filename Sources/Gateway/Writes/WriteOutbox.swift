import Dispatch
import Foundation
import RDS
import Synchronization

/// The durable outbox of one repository: writes the upstream could not take now, journaled on
/// disk before they are acknowledged, then delivered by ``start(deliver:)`` in order per resource.
///
/// Every change goes through the ``WriteJournal`` first (`fsync`ed, on one serial queue; writes
/// arriving together share one append and one `fsync`), then into memory, so what memory says
/// was acknowledged is on disk. A restart reads the journal
/// back: pending writes are delivered again (with their idempotency keys), dead letters stay
/// until an operator retries or discards them. At most ``WriteQueueSettings/maxPending`` writes
/// wait at once.
final class WriteOutbox: Sendable {
    private struct State {
        var writes: [UInt64: QueuedWrite] = [:]
        /// The pending writes of each resource, oldest first.
        var pendingByKey: [ResourceKey: [UInt64]] = [:]
        /// The resources whose head write is being delivered.
        var sending: Set<ResourceKey> = []
        var nextID: UInt64 = 0
        var pendingCount: Int { pendingByKey.values.reduce(0) { $0 + $1.count } }
    }

    /// The repository's name.
    let repository: String
    /// The bounds and retry timing.
    let settings: WriteQueueSettings
    private let journal: WriteJournal
    private let io = DispatchQueue(label: "rds.write-outbox")
    private let state: Mutex<State>
    private let clock: any ClockProvider
    private let logger: any Logger
    /// A write waiting for the journal, with the caller to acknowledge.
    private struct Arrival: Sendable {
        let kind: WriteKind
        let key: ResourceKey
        let element: Representation
        let at: Date
        let continuation: CheckedContinuation<QueuedWrite, any Error>
    }

    /// The writes waiting for the journal, and whether a flush is under way on its queue.
    private let arrivals = Mutex<(waiting: [Arrival], flushing: Bool)>(([], false))
    /// The delivery loop, while one runs, and what wakes it.
    private let delivery = Mutex<(loop: Task<Void, Never>, wake: AsyncStream<Void>.Continuation)?>(nil)

    /// Opens the outbox of `repository` on the journal at `path`, taking over what it holds.
    /// - Throws: ``DatastoreError`` when the journal cannot be opened.
    init(
        repository: String, path: String, settings: WriteQueueSettings, clock: any ClockProvider, logger: any Logger
    ) throws {
        let (journal, records) = try WriteJournal.open(path: path)
        var recovered = State()
        var maxID: UInt64 = 0
        for record in records {
            switch record {
            case .accepted(let id, let kind, let key, let element, let at):
                recovered.writes[id] = QueuedWrite(
                    id: id, kind: kind, key: key, element: element, acceptedAt: at, nextAttemptAt: at)
                maxID = max(maxID, id)
            case .retired(let id): recovered.writes[id] = nil
            case .deadLettered(let id, let reason): recovered.writes[id]?.deadReason = reason
            case .revived(let id): recovered.writes[id]?.deadReason = nil
            }
        }
        for write in recovered.writes.values.sorted(by: { $0.id < $1.id }) where !write.isDead {
            recovered.pendingByKey[write.key, default: []].append(write.id)
        }
        recovered.nextID = max(maxID, UInt64(max(0, clock.now.timeIntervalSince1970 * 1000)))
        if records.count > 2 * recovered.writes.count + 64 {
            try journal.rewrite(Self.records(of: recovered))
        }
        self.repository = repository
        self.settings = settings
        self.journal = journal
        self.state = Mutex(recovered)
        self.clock = clock
        self.logger = logger
        if !recovered.writes.isEmpty {
            logger.log(
                .info, "outbox_recovered",
                ["repository": .string(repository), "pending": .int(recovered.pendingCount),
                 "dead": .int(recovered.writes.count - recovered.pendingCount)])
        }
    }

    /// The writes waiting for delivery.
    var pendingCount: Int { state.withLock { $0.pendingCount } }
    /// The dead letters.
    var deadCount: Int { state.withLock { $0.writes.count - $0.pendingCount } }
    /// Seconds the oldest pending write has waited, 0 when none waits.
    var oldestPendingAge: TimeInterval {
        let now = clock.now
        return state.withLock { state in
            state.pendingByKey.values.compactMap { $0.first.flatMap { state.writes[$0]?.acceptedAt } }
                .map { now.timeIntervalSince($0) }.max() ?? 0
        }
    }

    /// `true` while `key` has pending writes: a new write to it queues behind them.
    func hasPending(_ key: ResourceKey) -> Bool { state.withLock { $0.pendingByKey[key] != nil } }

    /// The newest pending write of `key`: what a read answers meanwhile.
    func newestPending(for key: ResourceKey) -> QueuedWrite? {
        state.withLock { state in state.pendingByKey[key]?.last.flatMap { state.writes[$0] } }
    }

    /// The `limit` oldest writes, pending and dead, oldest first.
    func oldest(_ limit: Int) -> [QueuedWrite] {
        let writes = state.withLock { Array($0.writes.values) }
        return Array(writes.sorted { $0.id < $1.id }.prefix(limit))
    }

    /// The write `id`, if the outbox still holds it.
    func write(_ id: UInt64) -> QueuedWrite? { state.withLock { $0.writes[id] } }

    /// Journals a write and queues it behind the pending writes of its resource. Writes that
    /// arrive while the journal is busy are appended together, with one `fsync` (group commit).
    /// - Throws: ``OutboxFullError`` at `maxPending`; ``DatastoreError`` when the journal fails
    ///   (the write is then not acknowledged).
    func accept(_ kind: WriteKind, element: Representation, for key: ResourceKey) async throws -> QueuedWrite {
        let now = clock.now
        let write: QueuedWrite = try await withCheckedThrowingContinuation { continuation in
            let arrival = Arrival(kind: kind, key: key, element: element, at: now, continuation: continuation)
            let startsFlush = arrivals.withLock { arrivals in
                arrivals.waiting.append(arrival)
                defer { arrivals.flushing = true }
                return !arrivals.flushing
            }
            if startsFlush { io.async { [self] in flushArrivals() } }
        }
        log("write_queued", write)
        kick()
        return write
    }

    /// On the journal's queue: journals every write that has arrived with one append and one
    /// `fsync`, then acknowledges them; again while more arrived meanwhile.
    private func flushArrivals() {
        while true {
            let batch: [Arrival] = arrivals.withLock { arrivals in
                let taken = arrivals.waiting
                arrivals.waiting = []
                if taken.isEmpty { arrivals.flushing = false }
                return taken
            }
            guard !batch.isEmpty else { return }
            let (admitted, refused) = state.withLock { state in
                var pending = state.pendingCount
                var admitted: [(Arrival, QueuedWrite)] = []
                var refused: [Arrival] = []
                for arrival in batch {
                    guard pending < settings.maxPending else {
                        refused.append(arrival)
                        continue
                    }
                    pending += 1
                    state.nextID += 1
                    let write = QueuedWrite(
                        id: state.nextID, kind: arrival.kind, key: arrival.key, element: arrival.element,
                        acceptedAt: arrival.at, nextAttemptAt: arrival.at)
                    admitted.append((arrival, write))
                }
                return (admitted, refused)
            }
            for arrival in refused {
                arrival.continuation.resume(
                    throwing: OutboxFullError(repository: repository, maxPending: settings.maxPending))
            }
            guard !admitted.isEmpty else { continue }
            do {
                try journal.append(
                    admitted.map { _, write in
                        .accepted(id: write.id, kind: write.kind, key: write.key, element: write.element, at: write.acceptedAt)
                    })
            } catch {
                for (arrival, _) in admitted { arrival.continuation.resume(throwing: error) }
                continue
            }
            state.withLock { state in
                for (_, write) in admitted {
                    state.writes[write.id] = write
                    state.pendingByKey[write.key, default: []].append(write.id)
                }
            }
            for (arrival, write) in admitted { arrival.continuation.resume(returning: write) }
        }
    }

    /// Removes a delivered (or discarded) write.
    /// - Returns: `false` when the outbox does not hold `id` or the journal failed.
    @discardableResult
    func retire(_ id: UInt64) async -> Bool {
        await change(id, record: .retired(id: id)) { state, write in
            state.writes[id] = nil
            Self.unqueue(write, in: &state)
        }
    }

    /// Moves a pending write to the dead letters.
    @discardableResult
    func deadLetter(_ id: UInt64, reason: String) async -> Bool {
        await change(id, record: .deadLettered(id: id, reason: reason)) { state, write in
            state.writes[id]?.deadReason = reason
            Self.unqueue(write, in: &state)
        }
    }

    /// Sends a dead letter back to the end of its resource's queue, for delivery at once.
    /// - Returns: `false` when `id` is not a dead letter.
    func revive(_ id: UInt64) async -> Bool {
        guard write(id)?.isDead == true else { return false }
        let now = clock.now
        let revived = await change(id, record: .revived(id: id)) { state, write in
            state.writes[id]?.deadReason = nil
            state.writes[id]?.attempts = 0
            state.writes[id]?.nextAttemptAt = now
            state.pendingByKey[write.key, default: []].append(id)
        }
        kick()
        return revived
    }

    /// Records a failed attempt: the next one waits `delay` seconds.
    func reschedule(_ id: UInt64, after delay: TimeInterval, error: String) {
        let now = clock.now
        state.withLock { state in
            state.writes[id]?.attempts += 1
            state.writes[id]?.nextAttemptAt = now.addingTimeInterval(delay)
            state.writes[id]?.lastError = error
        }
    }

    /// The delay before attempt `attempts + 1`: `retryBase` doubled per attempt, at most
    /// `retryMax`, with up to 20 % jitter, and never shorter than the upstream's `retryAfter`.
    func backoff(attempts: Int, retryAfter: TimeInterval?) -> TimeInterval {
        let exponential = min(settings.retryMax, settings.retryBase * pow(2, Double(min(attempts, 30))))
        let jittered = exponential * Double.random(in: 0.8...1.0)
        return max(jittered, retryAfter ?? 0)
    }

    /// Delivers pending writes until ``stop()``: the head write of each resource once due, at
    /// most `parallelKeys` resources at once. `deliver` must retire, reschedule or dead-letter the
    /// write it is given. A second call replaces the loop (a reload hands over a new repository).
    func run(deliver: @escaping @Sendable (QueuedWrite) async -> Void) {
        let (kicks, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let loop = loop(kicks, deliver)
        let previous = delivery.withLock { delivery in
            defer { delivery = (loop, wake) }
            return delivery
        }
        previous?.wake.finish()
        previous?.loop.cancel()
        wake.yield()
    }

    /// Stops delivering (deliveries under way finish).
    func stop() {
        let current = delivery.withLock { delivery in
            defer { delivery = nil }
            return delivery
        }
        current?.wake.finish()
        current?.loop.cancel()
    }

    /// Wakes the delivery loop to look for due writes.
    private func kick() { _ = delivery.withLock { $0?.wake.yield() } }

    private func loop(
        _ kicks: AsyncStream<Void>, _ deliver: @escaping @Sendable (QueuedWrite) async -> Void
    ) -> Task<Void, Never> {
        Task { [self] in
            await withDiscardingTaskGroup { group in
                var timer: Task<Void, Never>?
                for await _ in kicks {
                    let (due, wake) = takeDue()
                    for write in due {
                        group.addTask { [self] in
                            await deliver(write)
                            _ = state.withLock { $0.sending.remove(write.key) }
                            kick()
                        }
                    }
                    timer?.cancel()
                    if let wake {
                        timer = Task { [self] in
                            if (try? await clock.sleep(until: wake)) != nil { kick() }
                        }
                    }
                }
                timer?.cancel()
            }
        }
    }

    /// Logs one line for a state change of a queued write (never its body).
    func log(_ event: String, _ write: QueuedWrite, reason: String? = nil) {
        var fields: [String: LogValue] = [
            "repository": .string(repository), "write": .string(String(write.id)), "kind": .string(write.kind.rawValue),
            "path": .string(write.key.path), "attempts": .int(write.attempts),
        ]
        if let reason { fields["reason"] = .string(reason) }
        logger.log(event == "write_dead_lettered" ? .warning : .info, event, fields)
    }

    /// The due head writes (marked as being sent) and, when others wait, when the next is due.
    private func takeDue() -> ([QueuedWrite], Date?) {
        let now = clock.now
        return state.withLock { state in
            var due: [QueuedWrite] = []
            var wake: Date?
            for (key, ids) in state.pendingByKey where !state.sending.contains(key) {
                guard let head = ids.first.flatMap({ state.writes[$0] }) else { continue }
                if head.nextAttemptAt <= now, state.sending.count < settings.parallelKeys {
                    state.sending.insert(key)
                    due.append(head)
                } else {
                    wake = min(wake ?? head.nextAttemptAt, max(head.nextAttemptAt, now))
                }
            }
            return (due, wake)
        }
    }

    private static func unqueue(_ write: QueuedWrite, in state: inout State) {
        state.pendingByKey[write.key]?.removeAll { $0 == write.id }
        if state.pendingByKey[write.key]?.isEmpty == true { state.pendingByKey[write.key] = nil }
    }

    /// Journals `record` for the write `id`, then applies `update`; an empty outbox truncates its journal.
    private func change(
        _ id: UInt64, record: JournalRecord, update: @escaping @Sendable (inout State, QueuedWrite) -> Void
    ) async -> Bool {
        do {
            return try await onJournal { [self] journal in
                guard let write = state.withLock({ $0.writes[id] }) else { return false }
                try journal.append([record])
                let empty = state.withLock { state in
                    update(&state, write)
                    return state.writes.isEmpty
                }
                if empty { try journal.rewrite([]) }
                return true
            }
        } catch {
            logger.log(
                .error, "outbox_journal_failed",
                ["repository": .string(repository), "error": .string(ErrorChain(error).links.map(\.message).joined(separator: ": "))])
            return false
        }
    }

    /// Runs `body` on the journal's serial queue (no lock is held while it writes).
    private func onJournal<T: Sendable>(_ body: @escaping @Sendable (WriteJournal) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            io.async { [journal] in continuation.resume(with: Result { try body(journal) }) }
        }
    }

    /// The records that rebuild `state`: each write accepted, and dead-lettered if it is.
    private static func records(of state: State) -> [JournalRecord] {
        state.writes.values.sorted { $0.id < $1.id }.flatMap { write -> [JournalRecord] in
            let accepted = JournalRecord.accepted(
                id: write.id, kind: write.kind, key: write.key, element: write.element, at: write.acceptedAt)
            return write.deadReason.map { [accepted, .deadLettered(id: write.id, reason: $0)] } ?? [accepted]
        }
    }
}
