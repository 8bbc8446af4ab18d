import RDS
import Synchronization

/// A real ``MemoryDatastore`` whose save of one chosen value is held until the test releases it,
/// and which records the values saved, in the order the saves finished.
final class HeldSaveDatastore: PeekableDatastore {
    private let memory = MemoryDatastore<String, String>(maxBytes: 1 << 20, maxEntries: 1_000)
    private let heldValue: String
    private let saved = Mutex<[String]>([])
    private let arrived: AsyncStream<Void>
    private let arrivedContinuation: AsyncStream<Void>.Continuation
    private let release: AsyncStream<Void>
    private let releaseContinuation: AsyncStream<Void>.Continuation

    /// Creates an empty store that holds the first save of `heldValue`.
    init(holding heldValue: String) {
        self.heldValue = heldValue
        (arrived, arrivedContinuation) = AsyncStream.makeStream(of: Void.self)
        (release, releaseContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    /// The values saved so far, in the order their saves finished.
    var savedValues: [String] { saved.withLock { $0 } }

    /// Returns once the save of the held value has started and is held.
    func waitForHeldSave() async {
        var iterator = arrived.makeAsyncIterator()
        _ = await iterator.next()
    }

    /// Lets the held save finish.
    func releaseHeldSave() { releaseContinuation.yield() }

    func peek(_ key: String) -> CacheEntry<String>? { memory.peek(key) }

    func get(_ key: String) async throws -> CacheEntry<String>? { await memory.get(key) }

    func save(_ entry: CacheEntry<String>, for key: String) async throws {
        if entry.value == heldValue {
            arrivedContinuation.yield()
            var iterator = release.makeAsyncIterator()
            _ = await iterator.next()
        }
        await memory.save(entry, for: key)
        saved.withLock { $0.append(entry.value) }
    }

    func delete(_ key: String) async throws { await memory.delete(key) }

    func deleteAll() async throws { await memory.deleteAll() }
}
