import Synchronization

/// A faster level in front of a slower one, read through and written through: memory in front of
/// disk, and, nested, memory in front of (disk in front of a shared level): `TwoLevelDatastore(l1:
/// memory, l2: TwoLevelDatastore(l1: disk, l2: redis))` chains three levels.
///
/// - `get` answers from L1; on an L1 miss it reads L2 and promotes a hit into L1.
/// - `save`, `renew`, `delete` and `deleteAll` go to L1 first, then to L2. When L2 fails, the L1 change
///   stays and the caller gets a ``DatastoreError`` of kind `secondLevelFailed` wrapping the L2
///   error; a failed L2 save also drops L2's older entry (best effort), so it cannot come back later.
/// - ``peek(_:)`` is L1's peek (when L1 can peek): synchronous, never waits for L2.
///
/// A promotion never puts an older value over a newer write: a value read from L2 is returned
/// but not kept in L1 when a write was under way or happened meanwhile (and if one slips in
/// while promoting, the promoted entry is dropped again), so L1 cannot keep a superseded value.
public final class TwoLevelDatastore<L1: Datastore, L2: Datastore>: Datastore
where L1.Key == L2.Key, L1.Value == L2.Value {
    /// The key type of both levels.
    public typealias Key = L1.Key
    /// The value type of both levels.
    public typealias Value = L1.Value

    /// The first (fast) level.
    public let l1: L1
    /// The second (durable) level.
    public let l2: L2

    private let logger: any Logger
    /// Counts started writes, so a promotion can tell whether one raced with its L2 read.
    private let writesStarted = Atomic<UInt64>(0)
    /// The writes between their start and the end of their L2 step.
    private let writesInFlight = Atomic<Int>(0)

    /// Combines two levels.
    /// - Parameters:
    ///   - l1: The first level, usually a ``MemoryDatastore`` (or a ``FileDatastore`` in front of a shared level).
    ///   - l2: The second level, usually a ``FileDatastore``, a shared level or a nested composite.
    ///   - logger: Receives a warning for every L2 failure.
    public init(l1: L1, l2: L2, logger: any Logger) {
        self.l1 = l1
        self.l2 = l2
        self.logger = logger
    }

    /// The entry from L1, else from L2 (then promoted into L1), else `nil`.
    /// - Throws: L1's error, or ``DatastoreError`` (`secondLevelFailed`) wrapping L2's.
    public func get(_ key: Key) async throws -> CacheEntry<Value>? {
        if let entry = try await l1.get(key) { return entry }
        let writesBefore = writesSoFar
        let entry: CacheEntry<Value>?
        do {
            entry = try await l2.get(key)
        } catch {
            throw secondLevelFailure("datastore_l2_read_failed", "The second-level datastore could not be read", error)
        }
        guard let entry, mayPromote(since: writesBefore) else { return entry }
        do {
            try await l1.save(entry, for: key)
        } catch {
            logger.log(.warning, "datastore_promotion_failed", ["error": .string(Self.code(of: error))])
        }
        if promotionRaced(since: writesBefore) {
            try? await l1.delete(key)
        }
        return entry
    }

    /// The count of writes started so far: taken before reading L2, for ``mayPromote(since:)``.
    var writesSoFar: UInt64 { writesStarted.load(ordering: .sequentiallyConsistent) }

    /// `true` when an entry read from L2 after `writesBefore` (``writesSoFar``) may be kept in
    /// L1: no write is under way and none started meanwhile.
    func mayPromote(since writesBefore: UInt64) -> Bool {
        writesInFlight.load(ordering: .sequentiallyConsistent) == 0 && writesSoFar == writesBefore
    }

    /// `true` when a write started while an entry was promoted: the promoted entry must go again.
    func promotionRaced(since writesBefore: UInt64) -> Bool { writesSoFar != writesBefore }

    /// Saves `entry` in L1, then in L2.
    /// - Throws: L1's error (nothing was written), or ``DatastoreError`` (`secondLevelFailed`)
    ///   wrapping L2's error after L1 was written.
    public func save(_ entry: CacheEntry<Value>, for key: Key) async throws {
        try await store(entry, for: key, renewing: false)
    }

    /// Renews `entry` in L1, then in L2, each as it renews (``Datastore/renew(_:for:)``: the
    /// disk level writes it behind); failures as for ``save(_:for:)``.
    public func renew(_ entry: CacheEntry<Value>, for key: Key) async throws {
        try await store(entry, for: key, renewing: true)
    }

    private func store(_ entry: CacheEntry<Value>, for key: Key, renewing: Bool) async throws {
        beginWrite()
        defer { endWrite() }
        try await l1.save(entry, for: key, renewing: renewing)
        do {
            try await l2.save(entry, for: key, renewing: renewing)
        } catch {
            try? await l2.delete(key)
            throw secondLevelFailure(
                "datastore_l2_write_failed", "The value is kept in memory but could not be written to the second level",
                error)
        }
    }

    /// Deletes `key` from L1, then from L2.
    /// - Throws: L1's error, or ``DatastoreError`` (`secondLevelFailed`) wrapping L2's.
    public func delete(_ key: Key) async throws {
        beginWrite()
        defer { endWrite() }
        try await l1.delete(key)
        do {
            try await l2.delete(key)
        } catch {
            throw secondLevelFailure("datastore_l2_delete_failed", "The second level could not delete the entry", error)
        }
    }

    /// Deletes every entry from L1, then from L2.
    /// - Throws: L1's error, or ``DatastoreError`` (`secondLevelFailed`) wrapping L2's.
    public func deleteAll() async throws {
        beginWrite()
        defer { endWrite() }
        try await l1.deleteAll()
        do {
            try await l2.deleteAll()
        } catch {
            throw secondLevelFailure(
                "datastore_l2_delete_failed", "The second level could not delete every entry", error)
        }
    }

    func beginWrite() {
        writesInFlight.add(1, ordering: .sequentiallyConsistent)
        writesStarted.add(1, ordering: .sequentiallyConsistent)
    }

    func endWrite() {
        writesInFlight.subtract(1, ordering: .sequentiallyConsistent)
    }

    /// Logs an L2 failure and wraps it for the caller.
    private func secondLevelFailure(_ event: String, _ message: String, _ error: any Error) -> DatastoreError {
        logger.log(.warning, event, ["error": .string(Self.code(of: error))])
        return DatastoreError(.secondLevelFailed, message, inner: error)
    }

    /// The error's stable code; never its description, which may hold secrets.
    private static func code(of error: any Error) -> String {
        (error as? any ChainedError)?.code ?? "unexpected"
    }
}
