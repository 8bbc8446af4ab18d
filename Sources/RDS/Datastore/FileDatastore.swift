import Dispatch
import Foundation

/// A datastore that keeps one file per key under a folder, surviving restarts.
///
/// - A file is named by the SHA-256 of the key's encoded bytes (`<64 hex digits>.entry`), so
///   any key, including `/`, `..`, NUL or 10 KB of text, maps to one safe name, the same in every
///   process. The full key is stored in the file and compared on read: two keys whose names
///   collide overwrite each other's file but never read each other's value.
/// - Every file carries a CRC-32 over the whole entry (``FileEntryFormat``). A corrupt,
///   truncated, foreign or other-version file reads as a miss and is removed.
/// - Writes go to a temporary file in the same folder that is then renamed over the entry, so a
///   process killed mid-write leaves the old entry or the new one, never a torn one.
/// - Blocking system calls run on a few serial `DispatchQueue`s (chosen by the key's hash, so the
///   operations on one key keep their order), bridged to `async` with continuations; nothing
///   blocks the cooperative thread pool and no lock is held across I/O.
/// - ``statistics`` (entry files, bytes, evictions) are counted when the folder is opened and kept
///   up to date by every save, delete, eviction and dropped corrupt file.
/// - With a `maxBytes`, a save that takes the entry files past it removes the files with the
///   oldest modification time (the least recently written) until they fit in 90 % of it.
public final class FileDatastore<Key: Hashable & Sendable & DatastoreCodable, Value: Sendable & DatastoreCodable>:
    Datastore
{
    /// The folder holding the entries.
    public let directory: URL

    /// ``directory`` as a file system path.
    let directoryPath: String
    /// Turns a key's encoded bytes into the digest that names its file.
    let hash: @Sendable ([UInt8]) -> [UInt8]
    /// The serial queues that run the blocking calls; a key always uses the same one.
    let queues: [DispatchQueue]
    private let budget: DiskBudget

    /// Opens the datastore in `directory`, creating the folder (and its parents) when missing.
    ///
    /// Files in the folder that the datastore did not name are left alone, even by ``deleteAll()``.
    /// - Parameters:
    ///   - directory: The folder of the entry files.
    ///   - maxBytes: A bound on the total size of the entry files, or `nil` for none. Opening
    ///     measures the files already there (a short blocking scan, meant for start-up).
    /// - Throws: ``DatastoreError`` (`writeFailed`) when the folder cannot be created, `readFailed`
    ///   when it cannot be listed.
    public convenience init(directory: URL, maxBytes: Int? = nil) throws {
        try self.init(directory: directory, maxBytes: maxBytes, hash: SHA256.digest)
    }

    /// Opens the datastore with another hash function for file names (tests force collisions).
    init(
        directory: URL, maxBytes: Int? = nil, hash: @escaping @Sendable ([UInt8]) -> [UInt8], queueCount: Int = 4
    ) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DatastoreError(.writeFailed, "Could not create the datastore folder", inner: error)
        }
        self.directory = directory
        self.directoryPath = directory.path
        self.hash = hash
        self.queues = (0..<max(1, queueCount)).map { DispatchQueue(label: "rds.file-datastore.io.\($0)") }
        let files: [BlockingFileIO.FileInfo]
        do {
            files = try BlockingFileIO.fileInfos(inDirectory: directory.path, where: Self.isEntryFileName)
        } catch {
            throw DatastoreError(.readFailed, "Could not list the datastore folder", inner: error)
        }
        budget = DiskBudget(maxBytes: maxBytes, usedBytes: files.reduce(0) { $0 + $1.size }, entries: files.count)
    }

    /// The number of entry files, their total size in bytes and the files evicted to respect
    /// `maxBytes` since the datastore was opened. Kept up to date by every operation: reading it
    /// does no I/O.
    public var statistics: DatastoreStatistics { budget.statistics }

    /// Reads the entry for `key`, fresh or stale; `nil` when missing or unusable.
    /// - Throws: ``DatastoreError`` (`readFailed`) when the file exists but cannot be read.
    public func get(_ key: Key) async throws -> CacheEntry<Value>? {
        let location = try location(of: key)
        let budget = budget
        return try await perform(on: location) { () throws(DatastoreError) -> CacheEntry<Value>? in
            let contents: [UInt8]?
            do {
                contents = try BlockingFileIO.readFile(at: location.path)
            } catch {
                throw DatastoreError(
                    .readFailed, "Could not read a datastore file", details: location.details, inner: error)
            }
            guard let contents else { return nil }
            switch FileEntryFormat.decode(contents, keyBytes: location.keyBytes) {
            case .entry(let stored):
                if let value = try? Value(decodingBytes: stored.value) { return stored.withValue(value) }
            case .otherKey:
                return nil
            case .invalid:
                break
            }
            if (try? BlockingFileIO.removeFile(at: location.path)) != nil { budget.recordRemoval(contents.count) }
            return nil
        }
    }

    /// Writes `entry` for `key`, atomically replacing any previous entry.
    /// - Throws: ``DatastoreError`` (`codingFailed` or `writeFailed`); the previous entry is then intact.
    public func save(_ entry: CacheEntry<Value>, for key: Key) async throws {
        let location = try location(of: key)
        let temporaryPath = temporaryPath(for: location)
        let (budget, directoryPath) = (budget, directoryPath)
        try await perform(on: location) { () throws(DatastoreError) in
            let valueBytes: [UInt8]
            do {
                valueBytes = try entry.value.encodedBytes()
            } catch {
                throw DatastoreError(
                    .codingFailed, "Could not encode the value", details: location.details, inner: error)
            }
            let contents = FileEntryFormat.encode(entry.withValue(valueBytes), keyBytes: location.keyBytes)
            let previousSize = BlockingFileIO.fileSize(at: location.path)
            do {
                try BlockingFileIO.writeAtomically(contents, to: location.path, via: temporaryPath)
            } catch {
                throw DatastoreError(
                    .writeFailed, "Could not write a datastore file", details: location.details, inner: error)
            }
            if budget.recordWrite(contents.count - (previousSize ?? 0), isNewFile: previousSize == nil) {
                Self.evict(in: directoryPath, budget: budget)
            }
        }
    }

    /// Removes the entry for `key`, if any.
    /// - Throws: ``DatastoreError`` (`deleteFailed`).
    public func delete(_ key: Key) async throws {
        let location = try location(of: key)
        let budget = budget
        try await perform(on: location) { () throws(DatastoreError) in
            let size = BlockingFileIO.fileSize(at: location.path)
            do {
                try BlockingFileIO.removeFile(at: location.path)
                if let size { budget.recordRemoval(size) }
            } catch {
                throw DatastoreError(
                    .deleteFailed, "Could not delete a datastore file", details: location.details, inner: error)
            }
        }
    }

    /// Removes every entry file (and leftover temporary file) of this datastore; other files stay.
    /// - Throws: ``DatastoreError`` (`deleteFailed`) naming the first failure; the other files are still removed.
    public func deleteAll() async throws {
        let (budget, directoryPath) = (budget, directoryPath)
        try await perform(on: queues[0]) { () throws(DatastoreError) in
            var firstFailure: FileSystemError?
            do throws(FileSystemError) {
                for name in try BlockingFileIO.fileNames(inDirectory: directoryPath) where Self.isOwnedFileName(name) {
                    do throws(FileSystemError) {
                        try BlockingFileIO.removeFile(at: directoryPath + "/" + name)
                    } catch {
                        firstFailure = firstFailure ?? error
                    }
                }
            } catch {
                firstFailure = error
            }
            let remaining = (try? BlockingFileIO.fileInfos(inDirectory: directoryPath, where: Self.isEntryFileName)) ?? []
            budget.reset(usedBytes: remaining.reduce(0) { $0 + $1.size }, entries: remaining.count)
            if let firstFailure {
                throw DatastoreError(.deleteFailed, "Could not delete every datastore file", inner: firstFailure)
            }
        }
    }
}
