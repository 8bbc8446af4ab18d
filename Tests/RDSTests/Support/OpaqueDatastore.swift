import RDS

/// Hides the peekability of a datastore.
struct OpaqueDatastore: Datastore {
    let base: FaultyDatastore
    init(_ base: FaultyDatastore) { self.base = base }
    func get(_ key: String) async throws -> CacheEntry<String>? { try await base.get(key) }
    func save(_ entry: CacheEntry<String>, for key: String) async throws { try await base.save(entry, for: key) }
    func delete(_ key: String) async throws { try await base.delete(key) }
    func deleteAll() async throws { try await base.deleteAll() }
}
