/// A snapshot of the size of a datastore (a memory or a disk level), for metrics.
public struct DatastoreStatistics: Sendable, Hashable {
    /// The number of entries held.
    public var entries: Int
    /// The size of the entries held, in bytes: the accounted size for memory (see
    /// ``MemoryDatastore/entryOverhead``), the size of the entry files for disk.
    public var bytes: Int
    /// How many entries were evicted to respect the bounds since the datastore was created.
    public var evictions: Int
    /// How many writes failed since the datastore was created (a disk level; always 0 for memory).
    public var writeFailures: Int
    /// The last failed write, while no write has succeeded since; `nil` when the level is healthy.
    public var lastWriteFailure: DatastoreFailure?

    /// `true` while the last write failed: the level is degraded (the levels above still cache).
    public var isDegraded: Bool { lastWriteFailure != nil }

    /// Creates a snapshot.
    public init(
        entries: Int, bytes: Int, evictions: Int, writeFailures: Int = 0, lastWriteFailure: DatastoreFailure? = nil
    ) {
        self.entries = entries
        self.bytes = bytes
        self.evictions = evictions
        self.writeFailures = writeFailures
        self.lastWriteFailure = lastWriteFailure
    }
}
