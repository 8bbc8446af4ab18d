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
public final class FileDatastore<Key: Hashable & Sendable & DatastoreCodable, Value: Sendable & DatastoreCodable>:
    Datastore
{
    /// The folder holding the entries.
    public let directory: URL

    private let directoryPath: String
    private let hash: @Sendable ([UInt8]) -> [UInt8]
    private let queues: [DispatchQueue]

    /// Opens the datastore in `directory`, creating the folder (and its parents) when missing.
    ///
    /// Files in the folder that the datastore did not name are left alone, even by ``deleteAll()``.
    /// - Throws: ``DatastoreError`` (`writeFailed`) when the folder cannot be created.
    public convenience init(directory: URL) throws {
        try self.init(directory: directory, hash: SHA256.digest)
    }

    /// Opens the datastore with another hash function for file names (tests force collisions).
    init(directory: URL, hash: @escaping @Sendable ([UInt8]) -> [UInt8], queueCount: Int = 4) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DatastoreError(.writeFailed, "Could not create the datastore folder", inner: error)
        }
        self.directory = directory
        self.directoryPath = directory.path
        self.hash = hash
        self.queues = (0..<max(1, queueCount)).map { DispatchQueue(label: "rds.file-datastore.io.\($0)") }
    }

    /// Reads the entry for `key`, fresh or stale; `nil` when missing or unusable.
    /// - Throws: ``DatastoreError`` (`readFailed`) when the file exists but cannot be read.
    public func get(_ key: Key) async throws -> CacheEntry<Value>? {
        let location = try location(of: key)
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
                try? BlockingFileIO.removeFile(at: location.path)
                return nil
            case .otherKey:
                return nil
            case .invalid:
                try? BlockingFileIO.removeFile(at: location.path)
                return nil
            }
        }
    }

    /// Writes `entry` for `key`, atomically replacing any previous entry.
    /// - Throws: ``DatastoreError`` (`codingFailed` or `writeFailed`); the previous entry is then intact.
    public func save(_ entry: CacheEntry<Value>, for key: Key) async throws {
        let location = try location(of: key)
        let temporaryPath = temporaryPath(for: location)
        try await perform(on: location) { () throws(DatastoreError) in
            let valueBytes: [UInt8]
            do {
                valueBytes = try entry.value.encodedBytes()
            } catch {
                throw DatastoreError(
                    .codingFailed, "Could not encode the value", details: location.details, inner: error)
            }
            let contents = FileEntryFormat.encode(entry.withValue(valueBytes), keyBytes: location.keyBytes)
            do {
                try BlockingFileIO.writeAtomically(contents, to: location.path, via: temporaryPath)
            } catch {
                throw DatastoreError(
                    .writeFailed, "Could not write a datastore file", details: location.details, inner: error)
            }
        }
    }

    /// Removes the entry for `key`, if any.
    /// - Throws: ``DatastoreError`` (`deleteFailed`).
    public func delete(_ key: Key) async throws {
        let location = try location(of: key)
        try await perform(on: location) { () throws(DatastoreError) in
            do {
                try BlockingFileIO.removeFile(at: location.path)
            } catch {
                throw DatastoreError(
                    .deleteFailed, "Could not delete a datastore file", details: location.details, inner: error)
            }
        }
    }

    /// Removes every entry file (and leftover temporary file) of this datastore; other files stay.
    /// - Throws: ``DatastoreError`` (`deleteFailed`) naming the first failure; the other files are still removed.
    public func deleteAll() async throws {
        let directoryPath = directoryPath
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
            if let firstFailure {
                throw DatastoreError(.deleteFailed, "Could not delete every datastore file", inner: firstFailure)
            }
        }
    }
}

extension FileDatastore {
    /// Where the entry of one key lives.
    private struct Location: Sendable {
        let keyBytes: [UInt8]
        let fileName: String
        let path: String
        let queue: DispatchQueue

        /// Context for errors: the file name only (a hash, so it reveals nothing of the key).
        var details: [String: String] { ["file": fileName] }
    }

    private static var entrySuffix: String { ".entry" }
    private static var temporarySuffix: String { ".tmp" }

    private func location(of key: Key) throws(DatastoreError) -> Location {
        let keyBytes: [UInt8]
        do {
            keyBytes = try key.encodedBytes()
        } catch {
            throw DatastoreError(.codingFailed, "Could not encode the key", inner: error)
        }
        let digest = hash(keyBytes)
        let fileName = Self.hex(digest) + Self.entrySuffix
        let queue = queues[Int(digest.first ?? 0) % queues.count]
        return Location(keyBytes: keyBytes, fileName: fileName, path: directoryPath + "/" + fileName, queue: queue)
    }

    /// A fresh hidden name next to the entry: `.<entry name>.<16 hex digits>.tmp`.
    private func temporaryPath(for location: Location) -> String {
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        return directoryPath + "/." + location.fileName + "." + random + Self.temporarySuffix
    }

    /// `true` for names this datastore writes: `<hex>.entry` and `.<hex>.entry.<hex>.tmp`.
    static func isOwnedFileName(_ name: String) -> Bool {
        var parts = name.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 2 {
            return parts[1] == "entry" && isHex(parts[0])
        }
        guard parts.count == 5, parts.removeFirst().isEmpty else { return false }
        return parts[1] == "entry" && parts[3] == "tmp" && isHex(parts[0]) && isHex(parts[2])
    }

    private static func isHex(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private func perform<Result: Sendable>(
        on location: Location, _ work: @escaping @Sendable () throws(DatastoreError) -> Result
    ) async throws -> Result {
        try await perform(on: location.queue, work)
    }

    /// Runs blocking `work` on `queue` and resumes the calling task with its outcome.
    private func perform<Result: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable () throws(DatastoreError) -> Result
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                do {
                    continuation.resume(returning: try work())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
