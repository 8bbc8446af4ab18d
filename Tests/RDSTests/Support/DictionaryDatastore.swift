import RDS
import Synchronization

/// A minimal peekable datastore for repository tests, with a switch to make saves fail.
final class DictionaryDatastore<Key: Hashable & Sendable, Value: Sendable>: PeekableDatastore {
    private struct State {
        var entries: [Key: CacheEntry<Value>] = [:]
        var failSaves = false
    }

    private let state = Mutex(State())

    /// Makes every later save throw (or work again); deletes keep working.
    func failSaves(_ fail: Bool) { state.withLock { $0.failSaves = fail } }

    /// The entries, for assertions.
    var entries: [Key: CacheEntry<Value>] { state.withLock { $0.entries } }

    func peek(_ key: Key) -> CacheEntry<Value>? { state.withLock { $0.entries[key] } }

    func get(_ key: Key) async throws -> CacheEntry<Value>? { peek(key) }

    func save(_ entry: CacheEntry<Value>, for key: Key) async throws {
        try state.withLock { state in
            guard !state.failSaves else { throw DatastoreError(.writeFailed, "disk full") }
            state.entries[key] = entry
        }
    }

    func delete(_ key: Key) async throws {
        state.withLock { $0.entries[key] = nil }
    }

    func deleteAll() async throws {
        state.withLock { $0.entries = [:] }
    }
}
