import RDS
import Synchronization

extension DatastoreTestFixtures {
    /// An in-memory second level whose operations can be made to fail or to wait, and which
    /// records every call, for testing ``TwoLevelDatastore`` alone.
    final class ScriptedDatastore: Datastore {
        /// The error a failing operation throws.
        struct Failure: ChainedError {
            var code: String { "scripted_failure" }
            var message: String { "The scripted datastore was told to fail" }
            var details: [String: String] { [:] }
            var inner: (any Error)? { nil }
        }

        private struct State {
            var entries: [String: CacheEntry<String>] = [:]
            var calls: [String] = []
            var failing: Set<String> = []
        }

        private let state = Mutex(State())
        private let getGate: AsyncStream<Void>?
        private let saveGate: AsyncStream<Void>?
        private let getStartedContinuation: AsyncStream<Void>.Continuation
        private let saveStartedContinuation: AsyncStream<Void>.Continuation

        /// Yields once each time a `get` starts.
        let getStarted: AsyncStream<Void>
        /// Yields once each time a `save` starts.
        let saveStarted: AsyncStream<Void>

        /// Creates an empty store. With a `getGate`, each `get` reads its entry, then waits for one
        /// element of the gate before returning it (a slow read that a write can overtake); with a
        /// `saveGate`, each `save` waits for one element before storing (a slow write).
        init(getGate: AsyncStream<Void>? = nil, saveGate: AsyncStream<Void>? = nil) {
            self.getGate = getGate
            self.saveGate = saveGate
            (getStarted, getStartedContinuation) = AsyncStream.makeStream(of: Void.self)
            (saveStarted, saveStartedContinuation) = AsyncStream.makeStream(of: Void.self)
        }

        /// The calls so far, as `operation key`.
        var calls: [String] { state.withLock { $0.calls } }

        /// Makes `operation` (`get`, `save`, `renew`, `delete`, `deleteAll`) throw ``Failure`` from now on.
        func fail(_ operation: String) { state.withLock { _ = $0.failing.insert(operation) } }

        /// Reads an entry without recording a call.
        func stored(_ key: String) -> CacheEntry<String>? { state.withLock { $0.entries[key] } }

        /// Writes an entry without recording a call.
        func store(_ entry: CacheEntry<String>, for key: String) { state.withLock { $0.entries[key] = entry } }

        func get(_ key: String) async throws -> CacheEntry<String>? {
            try record("get", key)
            let entry = stored(key)
            getStartedContinuation.yield()
            await Self.pass(getGate)
            return entry
        }

        func save(_ entry: CacheEntry<String>, for key: String) async throws {
            try record("save", key)
            saveStartedContinuation.yield()
            await Self.pass(saveGate)
            store(entry, for: key)
        }

        /// Records `renew key` (failing when `renew` is made to fail), then stores as ``save(_:for:)``
        /// does without recording it.
        func renew(_ entry: CacheEntry<String>, for key: String) async throws {
            try record("renew", key)
            store(entry, for: key)
        }

        /// Waits for one element of `gate`, if there is a gate.
        private static func pass(_ gate: AsyncStream<Void>?) async {
            guard let gate else { return }
            var iterator = gate.makeAsyncIterator()
            _ = await iterator.next()
        }

        func delete(_ key: String) async throws {
            try record("delete", key)
            state.withLock { _ = $0.entries.removeValue(forKey: key) }
        }

        func deleteAll() async throws {
            try record("deleteAll", "")
            state.withLock { $0.entries = [:] }
        }

        private func record(_ operation: String, _ key: String) throws {
            let fails = state.withLock { state in
                state.calls.append(key.isEmpty ? operation : "\(operation) \(key)")
                return state.failing.contains(operation)
            }
            if fails { throw Failure() }
        }
    }
}
