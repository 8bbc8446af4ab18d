/// A snapshot of the size of a datastore (a memory or a disk level), for metrics.
public struct DatastoreStatistics: Sendable, Hashable {
    /// The number of entries held.
    public var entries: Int
    /// The size of the entries held, in bytes: the accounted size for memory (see
    /// ``MemoryDatastore/entryOverhead``), the size of the entry files for disk.
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
