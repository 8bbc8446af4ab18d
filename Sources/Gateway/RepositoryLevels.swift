import RDS

/// The datastore levels of one repository by their concrete types: memory, then the disk and/or
/// the shared level when they are configured (read through and written through, see
/// ``TwoLevelDatastore``).
///
/// An enum rather than an `any Datastore`: every call switches to a chain of concrete types, so
/// the compiler specialises the generic level code (``TwoLevelDatastore``, ``FileDatastore``,
/// ``MemoryDatastore``) for the gateway's keys and values, where the existential would run it
/// through runtime generic metadata on every read.
enum RepositoryLevels: PeekableDatastore {
    typealias Memory = MemoryDatastore<ResourceKey, Representation>
    typealias Disk = FileDatastore<ResourceKey, Representation>
    typealias Shared = RedisDatastore<ResourceKey, Representation>

    /// Memory only.
    case memory(Memory)
    /// Memory in front of the disk.
    case disk(TwoLevelDatastore<Memory, Disk>)
    /// Memory in front of the shared level.
    case shared(TwoLevelDatastore<Memory, Shared>)
    /// Memory in front of (the disk in front of the shared level).
    case diskAndShared(TwoLevelDatastore<Memory, TwoLevelDatastore<Disk, Shared>>)

    /// Chains `memory`, then `disk` when it opened, then `shared` when there is one; `logger`
    /// receives the warnings of the lower levels.
    init(memory: Memory, disk: Disk?, shared: Shared?, logger: any Logger) {
        switch (disk, shared) {
        case (nil, nil): self = .memory(memory)
        case (let disk?, nil): self = .disk(TwoLevelDatastore(l1: memory, l2: disk, logger: logger))
        case (nil, let shared?): self = .shared(TwoLevelDatastore(l1: memory, l2: shared, logger: logger))
        case (let disk?, let shared?):
            let lower = TwoLevelDatastore(l1: disk, l2: shared, logger: logger)
            self = .diskAndShared(TwoLevelDatastore(l1: memory, l2: lower, logger: logger))
        }
    }

    /// The entry from the first level that holds it (promoted into the levels above).
    func get(_ key: ResourceKey) async throws -> CacheEntry<Representation>? {
        switch self {
        case .memory(let levels): await levels.get(key)
        case .disk(let levels): try await levels.get(key)
        case .shared(let levels): try await levels.get(key)
        case .diskAndShared(let levels): try await levels.get(key)
        }
    }

    /// Saves `entry` in every level, the fastest first.
    func save(_ entry: CacheEntry<Representation>, for key: ResourceKey) async throws {
        try await store(entry, for: key, renewing: false)
    }

    /// Renews `entry` in every level, the fastest first (the disk level writes it behind).
    func renew(_ entry: CacheEntry<Representation>, for key: ResourceKey) async throws {
        try await store(entry, for: key, renewing: true)
    }

    private func store(_ entry: CacheEntry<Representation>, for key: ResourceKey, renewing: Bool) async throws {
        switch self {
        case .memory(let levels): await levels.save(entry, for: key)
        case .disk(let levels): try await levels.save(entry, for: key, renewing: renewing)
        case .shared(let levels): try await levels.save(entry, for: key, renewing: renewing)
        case .diskAndShared(let levels): try await levels.save(entry, for: key, renewing: renewing)
        }
    }

    /// Deletes `key` from every level.
    func delete(_ key: ResourceKey) async throws {
        switch self {
        case .memory(let levels): await levels.delete(key)
        case .disk(let levels): try await levels.delete(key)
        case .shared(let levels): try await levels.delete(key)
        case .diskAndShared(let levels): try await levels.delete(key)
        }
    }

    /// Deletes every entry from every level.
    func deleteAll() async throws {
        switch self {
        case .memory(let levels): await levels.deleteAll()
        case .disk(let levels): try await levels.deleteAll()
        case .shared(let levels): try await levels.deleteAll()
        case .diskAndShared(let levels): try await levels.deleteAll()
        }
    }

    /// The memory level's entry for `key`, without suspending.
    func peek(_ key: ResourceKey) -> CacheEntry<Representation>? {
        switch self {
        case .memory(let memory): memory.peek(key)
        case .disk(let levels): levels.l1.peek(key)
        case .shared(let levels): levels.l1.peek(key)
        case .diskAndShared(let levels): levels.l1.peek(key)
        }
    }

    /// Renews `entry` in every level without suspending when each can: memory, and memory in
    /// front of the disk (which writes it behind); a chain with the shared level cannot (its
    /// renewal is a network write): `false`, and ``renew(_:for:)`` renews it.
    func renewInPlace(_ entry: CacheEntry<Representation>, for key: ResourceKey) -> Bool {
        switch self {
        case .memory(let memory): memory.renewInPlace(entry, for: key)
        case .disk(let levels): levels.renewInPlace(entry, for: key) { $0.renewInPlace(entry, for: key) }
        case .shared, .diskAndShared: false
        }
    }

    /// ``renewInPlace(_:for:)`` for a revalidation: the disk level skips its write when the
    /// renewal stays fresh for less than its interval or it wrote the key's file lately, unless
    /// the renewal shortens the freshness of the entry memory holds
    /// (``FileDatastore/renewRevalidatedInPlace(_:for:renewing:)``).
    func renewRevalidatedInPlace(_ entry: CacheEntry<Representation>, for key: ResourceKey) -> Bool {
        switch self {
        case .disk(let levels):
            levels.renewInPlace(entry, for: key) {
                $0.renewRevalidatedInPlace(entry, for: key, renewing: levels.l1.peek(key)?.expiresAt)
            }
        case .memory, .shared, .diskAndShared: renewInPlace(entry, for: key)
        }
    }

    /// The disk level's entry for `key` when it reads it in place, promoted into memory (with a
    /// shared level too, the disk level is read as the nested chain's `get` reads it first); the
    /// other chains answer `nil` (their `get` reads the shared level).
    func peekBelow(_ key: ResourceKey) -> CacheEntry<Representation>? {
        switch self {
        case .disk(let levels): levels.promotedEntryInPlace(for: key) { $0.entryInPlace(for: key) }
        case .diskAndShared(let levels): levels.promotedEntryInPlace(for: key) { $0.l1.entryInPlace(for: key) }
        case .memory, .shared: nil
        }
    }
}
