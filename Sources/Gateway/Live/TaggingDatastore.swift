import RDS

/// A repository's datastore that keeps its ``TagIndex`` up to date: every entry stored, or read
/// through ``get(_:)``, is indexed under the tags its answer names (``TagField``), every entry
/// removed (or found evicted by a read) is forgotten. A ``peek(_:)`` (the memory level, which
/// repositories read first) indexes nothing: what it finds was indexed as it was stored.
struct TaggingDatastore: Datastore, PeekableDatastore {
    /// The datastore holding the entries.
    let wrapped: any Datastore<ResourceKey, Representation>
    /// The index it keeps.
    let index: TagIndex
    /// The answer field naming the tags.
    let field: String
    private let peekable: (any PeekableDatastore<ResourceKey, Representation>)?

    /// Indexes what `wrapped` stores in `index`, reading tags from `field`.
    init(wrapping wrapped: any Datastore<ResourceKey, Representation>, index: TagIndex, field: String) {
        self.wrapped = wrapped
        self.index = index
        self.field = field
        self.peekable = wrapped as? any PeekableDatastore<ResourceKey, Representation>
    }

    func get(_ key: ResourceKey) async throws -> CacheEntry<Representation>? {
        let entry = try await wrapped.get(key)
        if let entry {
            indexIfNeeded(entry, for: key)
        } else {
            index.remove(key)  // evicted from every level: its tags go with it
        }
        return entry
    }

    /// Indexes the tags of `entry`, read from a level below memory, unless `key` has some already.
    private func indexIfNeeded(_ entry: CacheEntry<Representation>, for key: ResourceKey) {
        if index.tags(of: key) == nil { index.set(TagField.tags(in: entry.value, field: field), for: key) }
    }

    func save(_ entry: CacheEntry<Representation>, for key: ResourceKey) async throws {
        try await wrapped.save(entry, for: key)
        index.set(TagField.tags(in: entry.value, field: field), for: key)
    }

    func renew(_ entry: CacheEntry<Representation>, for key: ResourceKey) async throws {
        try await wrapped.renew(entry, for: key)
        index.set(TagField.tags(in: entry.value, field: field), for: key)
    }

    /// The wrapped levels' renewal without suspending, indexed as ``renew(_:for:)`` indexes; `false`
    /// (nothing renewed, nothing indexed) when they cannot.
    func renewInPlace(_ entry: CacheEntry<Representation>, for key: ResourceKey) -> Bool {
        indexed(entry, for: key, renewed: peekable?.renewInPlace(entry, for: key) == true)
    }

    /// The wrapped levels' renewal of a revalidation without suspending, indexed as
    /// ``renewInPlace(_:for:)`` indexes.
    func renewRevalidatedInPlace(_ entry: CacheEntry<Representation>, for key: ResourceKey) -> Bool {
        indexed(entry, for: key, renewed: peekable?.renewRevalidatedInPlace(entry, for: key) == true)
    }

    /// `renewed`, with `entry`'s tags indexed for `key` when it is `true`.
    private func indexed(_ entry: CacheEntry<Representation>, for key: ResourceKey, renewed: Bool) -> Bool {
        guard renewed else { return false }
        index.set(TagField.tags(in: entry.value, field: field), for: key)
        return true
    }

    func delete(_ key: ResourceKey) async throws {
        try await wrapped.delete(key)
        index.remove(key)
    }

    func deleteAll() async throws {
        try await wrapped.deleteAll()
        index.removeAll()
    }

    func peek(_ key: ResourceKey) -> CacheEntry<Representation>? {
        peekable?.peek(key)
    }

    /// The wrapped levels' entry from below memory, read in place (indexed as ``get(_:)`` indexes).
    func peekBelow(_ key: ResourceKey) -> CacheEntry<Representation>? {
        guard let entry = peekable?.peekBelow(key) else { return nil }
        indexIfNeeded(entry, for: key)
        return entry
    }
}
