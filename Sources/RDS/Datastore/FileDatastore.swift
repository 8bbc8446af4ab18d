import Dispatch
import Foundation

/// A datastore that keeps one file per key under a folder, surviving restarts.
///
/// - A file is named by the SHA-256 of the key's encoded bytes (`<64 hex digits>.entry`), so
///   any key, including `/`, `..`, NUL or 10 KB of text, maps to one safe name, the same in every
///   process. The full key is stored in the file and compared on read: two keys whose names
///   collide overwrite each other's file but never read each other's value.
/// - Every file carries a checksum (XXH64) over the whole entry (``FileEntryFormat``). A corrupt,
///   truncated, foreign or other-version file reads as a miss and is removed; a file larger than
///   ``maxEntryBytes`` or not of the size its header announces is removed without reading its body,
///   and so is a folder or link named like an entry.
/// - The folder belongs to the datastore: opening it removes anything that is not an entry file
///   (temporary files of older versions, foreign files, folders, files with a second name
///   elsewhere). A folder removed while the datastore runs is recreated by the next save.
/// - A save rewrites the key's file in place (written from its start, cut when the entry shrank)
///   or creates it: no temporary file, no new inode and no rename per save, which on ext4 cost
///   most of a save (a rename over a file forces the new data out to the disk and frees the old
///   inode). The operations on one key run in order on its queue; a read in place that meets a
///   save begun after it looked (``get(_:)``) finds a size or checksum that does not match and reads
///   again on the queue, after the save: no reader is answered from a half-written file. A
///   process killed (or a machine stopped) in the middle of a save can leave that one file torn:
///   its size or checksum then no longer match, and it reads as a miss and is removed, never served. A
///   save that fails removes the file likewise.
/// - Blocking system calls run on a few serial `DispatchQueue`s (chosen by the key's hash, so the
///   operations on one key keep their order), bridged to `async` with continuations; nothing
///   blocks the cooperative thread pool and no lock is held across I/O. A read whose file is in
///   the page cache while no change of a key of its bucket is under way is answered in place,
///   without waiting for the disk (``get(_:)``). A renewal (``renew(_:for:)``) is kept and
///   written later, in a batch with the others that came meanwhile; its caller does not wait.
///   A revalidation's renewal fresh for less than ``revalidationWriteInterval``, or of a file
///   written less than that ago, is not written at all unless it shortens the freshness
///   (``renewRevalidatedInPlace(_:for:renewing:)``).
///   Evictions and
///   ``deleteAll()`` run on one more queue and remove each file on its key's queue; re-measuring
///   a recreated folder runs there too, holding every key queue.
/// - ``statistics`` (entry files, bytes, evictions, write failures) are counted when the folder is
///   opened and kept exact by every save, delete, eviction and dropped file; a failed save marks
///   the level degraded (``DatastoreStatistics/lastWriteFailure``) until the next successful one.
/// - With a `maxBytes`, a save that takes the entry files past it removes the files with the
///   oldest modification time (the least recently written) until they fit in 90 % of it.
public final class FileDatastore<Key: Hashable & Sendable & DatastoreCodable, Value: Sendable & DatastoreCodable>:
    Datastore
{
    /// The largest entry file read when no smaller `maxBytes` is set: 256 MiB.
    public static var defaultMaxEntryBytes: Int { 256 << 20 }

    /// The folder holding the entries.
    public let directory: URL
    /// The largest entry file this datastore reads or writes: `maxBytes` or
    /// ``defaultMaxEntryBytes``, whichever is smaller.
    public let maxEntryBytes: Int

    /// ``directory`` as a file system path.
    let directoryPath: String
    /// Turns a key's encoded bytes into the digest that names its file.
    let hash: @Sendable ([UInt8]) -> [UInt8]
    /// The serial queues that run the blocking calls; a key always uses the same one.
    let queues: [DispatchQueue]
    /// Runs evictions and ``deleteAll()``, which hop onto the key queues (never the reverse).
    let maintenanceQueue = DispatchQueue(label: "rds.file-datastore.maintenance")
    /// Starts the write of each batch of renewals on ``maintenanceQueue``.
    let renewalTimer: RenewalBatchTimer
    let budget: DiskBudget
    /// The saves and deletes under way, so that ``get(_:)`` knows when a file may be read in place.
    let changesInFlight = FileChangesInFlight()
    /// The renewals accepted and not written yet (``renew(_:for:)``), and their bound.
    let renewals: PendingRenewals<Key, Value>
    /// The locations of the keys written lately (``writtenLocation(of:)``), with when, or just found
    /// missing by a read: at most 1,024, about 256 KiB.
    let writtenLocations = FileLocationCache<Key, Location>(capacity: 1_024)
    /// How long after a write of a key's file a revalidation's renewal of it is not written,
    /// and the freshness below which one is never written (``renewRevalidatedInPlace(_:for:renewing:)``);
    /// 0 writes every one.
    public let revalidationWriteInterval: TimeInterval
    /// Tells when files are written, for ``revalidationWriteInterval``.
    let clock: any ClockProvider

    /// Opens the datastore in `directory`, creating the folder (and its parents) when missing.
    ///
    /// Opening removes anything in the folder that is not an entry file (a short blocking scan,
    /// meant for start-up), then measures the entry files.
    /// - Parameters:
    ///   - directory: The folder of the entry files, owned by the datastore.
    ///   - maxBytes: A bound on the total size of the entry files, or `nil` for none.
    ///   - maxPendingRenewals: The most renewals kept for writing later (``renew(_:for:)``); 0
    ///     makes every renewal a waited save.
    ///   - revalidationWriteInterval: How long after a write of a key's file a revalidation's
    ///     renewal of it is not written, and the freshness below which one is never written
    ///     (``renewRevalidatedInPlace(_:for:renewing:)``); 0 writes every one.
    ///   - clock: Tells when files are written.
    /// - Throws: ``DatastoreError`` (`writeFailed`) when the folder cannot be created, `readFailed`
    ///   when it cannot be listed.
    public convenience init(
        directory: URL, maxBytes: Int? = nil, maxPendingRenewals: Int = 1024,
        revalidationWriteInterval: TimeInterval = 60, clock: any ClockProvider = SystemClock()
    ) throws {
        try self.init(
            directory: directory, maxBytes: maxBytes, hash: SHA256.digest, maxPendingRenewals: maxPendingRenewals,
            revalidationWriteInterval: revalidationWriteInterval, clock: clock)
    }

    /// Opens the datastore with another hash function for file names (tests force collisions).
    init(
        directory: URL, maxBytes: Int? = nil, hash: @escaping @Sendable ([UInt8]) -> [UInt8], queueCount: Int = 4,
        maxPendingRenewals: Int = 1024, revalidationWriteInterval: TimeInterval = 60,
        clock: any ClockProvider = SystemClock()
    ) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DatastoreError(.writeFailed, "Could not create the datastore folder", inner: error)
        }
        self.directory = directory
        self.directoryPath = directory.path
        self.maxEntryBytes = min(maxBytes ?? .max, Self.defaultMaxEntryBytes)
        self.hash = hash
        self.revalidationWriteInterval = revalidationWriteInterval
        self.clock = clock
        self.renewals = PendingRenewals(limit: maxPendingRenewals)
        self.renewalTimer = RenewalBatchTimer(queue: maintenanceQueue)
        self.queues = (0..<max(1, queueCount)).map { DispatchQueue(label: "rds.file-datastore.io.\($0)") }
        let files: [BlockingFileIO.FileInfo]
        do {
            files = try Self.removeAllButEntryFiles(in: directory.path)
        } catch {
            throw DatastoreError(.readFailed, "Could not list the datastore folder", inner: error)
        }
        budget = DiskBudget(maxBytes: maxBytes, usedBytes: files.reduce(0) { $0 + $1.size }, entries: files.count)
    }

    /// The number of entry files, their total size in bytes, the files evicted to respect
    /// `maxBytes` and the failed writes since the datastore was opened, and the last failure
    /// while no write has succeeded since. Kept up to date by every operation: reading it does no I/O.
    public var statistics: DatastoreStatistics { budget.statistics }

    /// Reads the entry for `key`, fresh or stale; `nil` when missing or unusable.
    /// - Throws: ``DatastoreError`` (`readFailed`) when the file exists but cannot be read.
    ///
    /// When no save or delete of a key of the same bucket is under way and the whole file is in
    /// the page cache, it is read right here, on the caller's thread (an event loop), without
    /// waiting for the disk; anything else (a change queued, pages on disk only, an unusable file)
    /// is read on the key's queue, in order with its changes.
    public func get(_ key: Key) async throws -> CacheEntry<Value>? {
        let location = try readLocation(of: key)
        // Found missing by the fast path just before (``entryInPlace(for:)``), nothing begun since.
        if changesInFlight.takeMissing(location.entryPath) { return nil }
        if let found = readInPlace(at: location, for: key) { return found }
        let (budget, maxEntryBytes, writtenLocations) = (budget, maxEntryBytes, writtenLocations)
        changesInFlight.countReadOnQueue()
        return try await perform(on: location) { () throws(DatastoreError) -> CacheEntry<Value>? in
            let read: BlockingFileIO.EntryRead
            do {
                read = try BlockingFileIO.readEntryFile(
                    at: location.path, maxSize: maxEntryBytes, headerSize: FileEntryFormat.headerSize,
                    expectedSize: FileEntryFormat.fileSize(header:))
            } catch {
                throw DatastoreError(
                    .readFailed, "Could not read a datastore file", details: location.details, inner: error)
            }
            let size: Int?
            switch read {
            case .missing:
                writtenLocations.hold(location, for: key)
                return nil
            case .unusable(let unusableSize):
                size = unusableSize
            case .contents(let contents):
                if let found = Self.storedEntry(in: contents, keyBytes: location.keyBytes) { return found }
                size = contents.count
            }
            if BlockingFileIO.removeAnything(at: location.path), let size { budget.recordRemoval(size) }
            return nil
        }
    }

    /// The entry for `key` when it can be read right here, without waiting for the disk or a
    /// queue (see ``get(_:)``); `nil` when it cannot (the key's file is missing, not wholly in the
    /// page cache, changing, or unusable: ``get(_:)`` tells). For the event loop's fast path,
    /// which answers from here what the memory level no longer holds.
    public func entryInPlace(for key: Key) -> CacheEntry<Value>? {
        guard let location = try? readLocation(of: key) else { return nil }
        return readInPlace(at: location, for: key) ?? nil
    }

    /// What ``get(_:)`` answers for the key at `location` without waiting: `.some(entry)` or
    /// `.some(nil)` (no such file, or another key's), or `nil` when only a read on the key's
    /// queue can tell. A missing file holds the key's location: its answer is written next.
    private func readInPlace(at location: Location, for key: Key) -> CacheEntry<Value>?? {
        if let pending = renewals.renewal(at: location.entryPath) {
            // The file's newest change, not written yet; another key's (names collided) is a miss.
            return .some(pending.location.keyBytes == location.keyBytes ? pending.entry : nil)
        }
        guard let quiet = changesInFlight.quietMark(location.bucket),
            let read = BlockingFileIO.readCachedEntryFile(
                at: location.path, maxSize: maxEntryBytes, headerSize: FileEntryFormat.headerSize,
                expectedSize: FileEntryFormat.fileSize(header:))
        else { return nil }
        switch read {
        case .missing:
            writtenLocations.hold(location, for: key)  // a cold miss: its answer is written next
            changesInFlight.noteMissing(location.entryPath, bucket: location.bucket, since: quiet)
            return .some(nil)
        case .contents(let contents):
            // An unusable file is removed on the queue, in order with the key's changes.
            guard let found = Self.storedEntry(in: contents, keyBytes: location.keyBytes) else { return nil }
            if found != nil { changesInFlight.countReadInPlace() }
            return found
        case .unusable:
            return nil
        }
    }

    /// What an entry file's `contents` hold for the key of `keyBytes`: `.some(entry)`, `.some(nil)`
    /// for another key's file (names collided: a miss, the file stays), or `nil` when they are
    /// unusable (corrupt, or a value that no longer decodes: the caller removes the file).
    private static func storedEntry(in contents: [UInt8], keyBytes: [UInt8]) -> CacheEntry<Value>?? {
        FileEntryFormat.decode(
            contents, keyBytes: keyBytes, value: Value.init(decodingBytesIn:), held: { $0.heldValidators })
    }

    /// Writes `entry` for `key`, replacing any previous entry; recreates the folder when it was removed.
    /// - Throws: ``DatastoreError``: `codingFailed` (the previous entry is intact) or `writeFailed`
    ///   (the key's file is removed, it reads as a miss; the level is degraded until the next
    ///   successful save).
    public func save(_ entry: CacheEntry<Value>, for key: Key) async throws {
        try await save(entry, at: writtenLocation(of: key))
    }

    /// Writes `entry` at `location` on its queue and waits for it, then for the eviction or
    /// re-measuring it calls for.
    func save(_ entry: CacheEntry<Value>, at location: Location) async throws {
        changesInFlight.begin(location.bucket)
        defer { changesInFlight.end(location.bucket) }
        dropPendingRenewal(at: location)
        let written = try await perform(on: location) { () throws(DatastoreError) in
            try self.write(entry, at: location)
        }
        guard written.mustEvict || written.recreatedFolder else { return }
        try await perform(on: maintenanceQueue) { () throws(DatastoreError) in self.tidy(after: written) }
    }

    /// Encodes `entry` and writes it as the file at `location` (see
    /// ``write(_:to:in:budget:)``). Runs on the key's queue.
    /// - Throws: ``DatastoreError``: `codingFailed` (the file is untouched) or `writeFailed`
    ///   (recorded as the level's last failure).
    func write(
        _ entry: CacheEntry<Value>, at location: Location
    ) throws(DatastoreError) -> (mustEvict: Bool, recreatedFolder: Bool) {
        let valueBytes: [UInt8]
        do {
            valueBytes = try entry.value.encodedBytes()
        } catch {
            throw DatastoreError(.codingFailed, "Could not encode the value", details: location.details, inner: error)
        }
        let contents = FileEntryFormat.encode(entry.withValue(valueBytes), keyBytes: location.keyBytes)
        guard contents.count <= maxEntryBytes else {
            throw DatastoreError(
                .codingFailed, "The entry is larger than the datastore's largest entry", details: location.details)
        }
        do throws(FileSystemError) {
            return try Self.write(contents, to: location.path, in: directoryPath, budget: budget)
        } catch {
            let failure = DatastoreError(
                .writeFailed, "Could not write a datastore file", details: location.details, inner: error)
            budget.recordFailure(DatastoreFailure(code: failure.code, message: error.message, at: Date()))
            throw failure
        }
    }

    /// Re-measures a recreated folder and evicts, as a write's outcome asks. Runs on the
    /// maintenance queue.
    func tidy(after written: (mustEvict: Bool, recreatedFolder: Bool)) {
        if written.recreatedFolder { Self.remeasure(in: directoryPath, budget: budget, queues: queues[...]) }
        if written.mustEvict { Self.evict(in: directoryPath, budget: budget, queues: queues) }
    }

    /// Removes the entry for `key`, if any.
    /// - Throws: ``DatastoreError`` (`deleteFailed`).
    public func delete(_ key: Key) async throws {
        let location = try location(of: key)
        changesInFlight.begin(location.bucket)
        defer { changesInFlight.end(location.bucket) }
        dropPendingRenewal(at: location)
        let budget = budget
        try await perform(on: location) { () throws(DatastoreError) in
            do {
                try Self.remove(location.path, counted: true, in: budget)
            } catch {
                throw DatastoreError(
                    .deleteFailed, "Could not delete a datastore file", details: location.details, inner: error)
            }
        }
    }

    /// Removes every entry file of this datastore; other files stay.
    /// - Throws: ``DatastoreError`` (`deleteFailed`) naming the first failure; the other files are still removed.
    public func deleteAll() async throws {
        for renewal in renewals.takeAll() { changesInFlight.end(renewal.location.bucket) }
        let (budget, directoryPath, queues) = (budget, directoryPath, queues)
        try await perform(on: maintenanceQueue) { () throws(DatastoreError) in
            var firstFailure: FileSystemError?
            do throws(FileSystemError) {
                let names = try BlockingFileIO.fileNames(inDirectory: directoryPath).filter(Self.isEntryFileName)
                let groups = Dictionary(grouping: names) { Self.queueIndex(ofFileNamed: $0, queueCount: queues.count) }
                for (index, group) in groups {
                    queues[index].sync {
                        for name in group {
                            do throws(FileSystemError) {
                                let path = directoryPath + "/" + name
                                try Self.remove(path, counted: true, in: budget)
                            } catch {
                                firstFailure = firstFailure ?? error
                            }
                        }
                    }
                }
            } catch {
                firstFailure = error
            }
            if let firstFailure {
                throw DatastoreError(.deleteFailed, "Could not delete every datastore file", inner: firstFailure)
            }
        }
    }
}
