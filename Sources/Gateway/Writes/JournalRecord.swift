import Foundation
import RDS

/// One record of a ``WriteJournal``: a write accepted, delivered (or discarded), dead-lettered,
/// or revived for another try.
enum JournalRecord: Sendable {
    /// A write was accepted.
    case accepted(id: UInt64, kind: WriteKind, key: ResourceKey, element: Representation, at: Date)
    /// The write was delivered or discarded: it is gone.
    case retired(id: UInt64)
    /// The write was dead-lettered.
    case deadLettered(id: UInt64, reason: String)
    /// A dead letter was sent back to the queue by an operator.
    case revived(id: UInt64)

    /// The record's payload bytes.
    func encodedBytes() throws -> [UInt8] {
        // The nested encodings are made first: the writer may run its closure twice, and their
        // sizes tell the room the record needs.
        let (keyBytes, elementBytes): ([UInt8], [UInt8]) =
            if case .accepted(_, _, let key, let element, _) = self {
                (try key.encodedBytes(), try element.encodedBytes())
            } else {
                ([], [])
            }
        return ByteWriter.bytes(capacity: keyBytes.count + elementBytes.count + 64) { writer in
            switch self {
            case .accepted(let id, let kind, _, _, let at):
                writer.writeVarint(1)
                writer.writeVarint(id)
                writer.writeString(kind.rawValue)
                writer.writeBytes(keyBytes)
                writer.writeBytes(elementBytes)
                writer.writeVarint(UInt64(max(0, at.timeIntervalSince1970 * 1000)))
            case .retired(let id):
                writer.writeVarint(2)
                writer.writeVarint(id)
            case .deadLettered(let id, let reason):
                writer.writeVarint(3)
                writer.writeVarint(id)
                writer.writeString(reason)
            case .revived(let id):
                writer.writeVarint(4)
                writer.writeVarint(id)
            }
        }
    }

    /// Decodes ``encodedBytes()``.
    /// - Throws: ``DatastoreError`` (`codingFailed`) for foreign bytes.
    init(decodingBytes bytes: [UInt8]) throws {
        self = try ByteReader.read(bytes, subject: "journal record") { reader in
            let type = try reader.readVarint()
            let id = try reader.readVarint()
            let record: JournalRecord
            switch type {
            case 1:
                guard let kind = WriteKind(rawValue: try reader.readString()) else {
                    throw reader.failure("unknown kind")
                }
                let key = try ResourceKey(decodingBytes: try reader.readBytes())
                let element = try Representation(decodingBytes: try reader.readBytes())
                let at = Date(timeIntervalSince1970: Double(try reader.readVarint()) / 1000)
                record = .accepted(id: id, kind: kind, key: key, element: element, at: at)
            case 2: record = .retired(id: id)
            case 3: record = .deadLettered(id: id, reason: try reader.readString())
            case 4: record = .revived(id: id)
            default: throw reader.failure("unknown record type \(type)")
            }
            try reader.expectEnd()
            return record
        }
    }
}
