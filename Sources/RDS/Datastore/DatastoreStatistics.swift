/// A snapshot of the size of an in-memory datastore, for metrics.
public struct DatastoreStatistics: Sendable, Hashable {
    /// The number of entries held.
    public var entries: Int
    /// The accounted size of the entries held, in bytes (see ``MemoryDatastore/entryOverhead``).
    public var bytes: Int
    /// How many entries were evicted to respect the bounds since the datastore was created.
    public var evictions: Int

    /// Creates a snapshot.
    public init(entries: Int, bytes: Int, evictions: Int) {
        self.entries = entries
        self.bytes = bytes
        self.evictions = evictions
    }
}
