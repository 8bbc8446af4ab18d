import Foundation
import Glibc
import RDS

/// The append-only file of one repository's outbox: each record framed as its length and CRC-32
/// (both little-endian `UInt32`) before its bytes, and `fsync`ed before ``append(_:)`` returns.
///
/// Opening reads every intact record; the first frame that is cut short or fails its checksum
/// (a write torn by a crash) ends the journal, and the file is cut back to the intact records.
/// ``rewrite(_:)`` replaces the file with only the records still needed (temporary file,
/// `fsync`, rename). Not thread-safe: its ``WriteOutbox`` calls it on one serial queue only.
final class WriteJournal: @unchecked Sendable {
    /// The file.
    let path: String
    private var descriptor: Int32
    /// The file's size in bytes.
    private(set) var size: Int

    /// The largest record read back (larger lengths are a torn or foreign tail).
    static let maxRecordBytes = 1 << 30

    /// Opens the journal at `path` (creating it and its folder), and returns it with its records.
    /// - Throws: ``DatastoreError`` when the file cannot be read, cut back or opened.
    static func open(path: String) throws -> (WriteJournal, [JournalRecord]) {
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
        var records: [JournalRecord] = []
        var offset = 0
        while let (record, next) = frame(in: bytes, at: offset) {
            records.append(record)
            offset = next
        }
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("open", path) }
        if offset < bytes.count {
            guard ftruncate(descriptor, off_t(offset)) == 0, fsync(descriptor) == 0 else {
                Glibc.close(descriptor)
                throw failure("cut the torn tail of", path)
            }
        }
        return (WriteJournal(path: path, descriptor: descriptor, size: offset), records)
    }

    private init(path: String, descriptor: Int32, size: Int) {
        self.path = path
        self.descriptor = descriptor
        self.size = size
    }

    deinit { Glibc.close(descriptor) }

    /// Appends `records` in one write and `fsync`s the file.
    /// - Throws: ``DatastoreError`` (`writeFailed`); the file may then hold a torn tail, which
    ///   the next opening cuts off.
    func append(_ records: [JournalRecord]) throws {
        let bytes = try records.flatMap(Self.framed)
        try Self.writeAll(bytes, to: descriptor, path: path)
        guard fsync(descriptor) == 0 else { throw Self.failure("sync", path) }
        size += bytes.count
    }

    /// Replaces the file with `records` only (temporary file, `fsync`, rename), and appends there from then on.
    /// - Throws: ``DatastoreError`` (`writeFailed`); the old file is then left as it was.
    func rewrite(_ records: [JournalRecord]) throws {
        let temporary = path + ".tmp"
        let bytes = try records.flatMap(Self.framed)
        let fresh = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fresh >= 0 else { throw Self.failure("create", temporary) }
        do {
            try Self.writeAll(bytes, to: fresh, path: temporary)
            guard fsync(fresh) == 0 else { throw Self.failure("sync", temporary) }
        } catch {
            Glibc.close(fresh)
            unlink(temporary)
            throw error
        }
        Glibc.close(fresh)
        guard rename(temporary, path) == 0 else { throw Self.failure("rename", temporary) }
        let reopened = Glibc.open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard reopened >= 0 else { throw Self.failure("reopen", path) }
        Glibc.close(descriptor)
        descriptor = reopened
        size = bytes.count
    }

    /// The record framed at `offset` and the offset after it; `nil` at the end or at a torn or corrupt frame.
    private static func frame(in bytes: [UInt8], at offset: Int) -> (JournalRecord, Int)? {
        guard bytes.count - offset >= 8 else { return nil }
        let length = Int(littleEndian(bytes, offset))
        let checksum = littleEndian(bytes, offset + 4)
        guard length <= maxRecordBytes, bytes.count - offset - 8 >= length else { return nil }
        let payload = Array(bytes[(offset + 8)..<(offset + 8 + length)])
        guard payload.withUnsafeBytes(CRC32.checksum) == checksum,
            let record = try? JournalRecord(decodingBytes: payload)
        else { return nil }
        return (record, offset + 8 + length)
    }

    private static func framed(_ record: JournalRecord) throws -> [UInt8] {
        let payload = try record.encodedBytes()
        return bytes(UInt32(payload.count)) + bytes(payload.withUnsafeBytes(CRC32.checksum)) + payload
    }

    private static func bytes(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw failure("write", path) }
            written += count
        }
    }

    private static func failure(_ action: String, _ path: String) -> DatastoreError {
        let reason = String(cString: strerror(errno))
        return DatastoreError(
            .writeFailed, "Could not \(action) the write journal: \(reason)", details: ["file": path])
    }
}
