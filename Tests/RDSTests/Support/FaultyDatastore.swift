import RDS
import Synchronization

/// A real ``MemoryDatastore`` behind a switch that makes saves fail, for repository tests.
final class FaultyDatastore: PeekableDatastore {
    let memory = MemoryDatastore<String, String>(maxBytes: 1 << 20, maxEntries: 1_000)
    private let failSavesFlag = Mutex(false)

    /// Makes every later save throw (or work again); deletes keep working.
    func failSaves(_ fail: Bool) { failSavesFlag.withLock { $0 = fail } }

    /// The number of stored entries.
    var count: Int { memory.statistics.entries }

    func peek(_ key: String) -> CacheEntry<String>? {
        peekCount.withLock { $0 += 1 }
        return memory.peek(key)
    }

    /// How many times ``peek(_:)`` was called.
    var peeks: Int { peekCount.withLock { $0 } }
    private let peekCount = Mutex(0)

    func get(_ key: String) async throws -> CacheEntry<String>? { await memory.get(key) }

    /// How many renewals were taken without suspending (``renewInPlace(_:for:)``).
    var renewalsInPlace: Int { inPlace.withLock { $0 } }
    private let inPlace = Mutex(0)

    /// Renews in memory without suspending, unless saves fail: then `false` (the async save throws).
    func renewInPlace(_ entry: CacheEntry<String>, for key: String) -> Bool {
        renewInMemory(entry, for: key, counting: inPlace)
    }

    /// How many revalidations' renewals were taken without suspending (``renewRevalidatedInPlace(_:for:)``).
    var revalidationsInPlace: Int { revalidatedInPlace.withLock { $0 } }
    private let revalidatedInPlace = Mutex(0)

    /// Renews a revalidation in memory without suspending, unless saves fail.
    func renewRevalidatedInPlace(_ entry: CacheEntry<String>, for key: String) -> Bool {
        renewInMemory(entry, for: key, counting: revalidatedInPlace)
    }

    /// Renews `entry` in memory, counted in `counter`, unless saves fail: then `false`.
    private func renewInMemory(_ entry: CacheEntry<String>, for key: String, counting counter: borrowing Mutex<Int>)
        -> Bool
    {
        guard !failSavesFlag.withLock({ $0 }) else { return false }
        counter.withLock { $0 += 1 }
        return memory.renewInPlace(entry, for: key)
    }

    func save(_ entry: CacheEntry<String>, for key: String) async throws {
        guard !failSavesFlag.withLock({ $0 }) else { throw DatastoreError(.writeFailed, "disk full") }
        await memory.save(entry, for: key)
    }

    func delete(_ key: String) async throws { await memory.delete(key) }

    func deleteAll() async throws { await memory.deleteAll() }
}
