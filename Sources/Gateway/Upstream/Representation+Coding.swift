import HTTP1
import RDS

extension Representation: ByteCounted {
    /// Body plus header bytes (twice: the fields, and their wire form kept for replay) plus a
    /// small fixed overhead.
    public var byteCount: Int {
        headers.fields.reduce(body.count + 48) { $0 + 2 * ($1.name.utf8.count + $1.value.utf8.count + 4) }
    }
}

extension Representation: DatastoreCodable {
    /// `RPR` followed by the format version: 2 since every end-to-end field is kept. Version 1
    /// entries (nine fields only) no longer decode, so the file datastore reads them as a miss.
    private static let magic: [UInt8] = [0x52, 0x50, 0x52, 2]

    /// Its `ETag` and `Last-Modified` fields: a disk hit takes their strings for the entry's validators.
    public var heldValidators: Validators? { validators }

    /// The compact binary form: magic, status, method, header count, fields, body.
    /// `Set-Cookie` is never stored.
    public func encodedBytes() throws -> [UInt8] {
        ByteWriter.bytes(capacity: byteCount + 16) { writer in
            writer.writeRaw(Self.magic)
            writer.writeVarint(UInt64(max(0, status)))
            writer.writeString(method?.rawValue ?? "")
            // The fields but `Set-Cookie`, counted and then written where they lie (no filtered
            // copy of the list, no copy of each field).
            headers.fields.withUnsafeBufferPointer { fields in
                writer.writeVarint(UInt64(fields.reduce(0) { Self.isStored($1) ? $0 + 1 : $0 }))
                for index in fields.indices where Self.isStored(fields[index]) {
                    writer.writeString(fields[index].name)
                    writer.writeString(fields[index].value)
                }
            }
            writer.writeBytes(body)
        }
    }

    /// `false` for `Set-Cookie`, which is never stored.
    private static func isStored(_ field: HTTPField) -> Bool {
        !HTTPHeaders.equalsIgnoringCase(field.name, "Set-Cookie")
    }

    /// Decodes ``encodedBytes()``.
    /// - Throws: ``DatastoreError`` (`codingFailed`) for truncated, oversized or foreign bytes.
    public init(decodingBytes bytes: [UInt8]) throws {
        self = try ByteReader.read(bytes, subject: Self.subject, Self.decode)
    }

    /// Decodes ``encodedBytes()`` where they lie: the body is the one copy made.
    /// - Throws: ``DatastoreError`` (`codingFailed`) for truncated, oversized or foreign bytes.
    public init(decodingBytesIn bytes: UnsafeRawBufferPointer) throws {
        self = try ByteReader.read(bytes, subject: Self.subject, Self.decode)
    }

    private static var subject: String { "representation" }

    private static func decode(_ reader: inout ByteReader) throws -> Representation {
        try reader.expectRaw(Self.magic)
        let status = try reader.readInt(in: 0...999)
        let method = try reader.readString()
        let count = try reader.readInt(in: 0...reader.count)
        var fields: [HTTPField] = []
        fields.reserveCapacity(count)
        for _ in 0..<count {
            let name = try reader.readFieldName()
            fields.append(HTTPField(name: name, value: try reader.readString()))
        }
        let body = try reader.readBytes()
        try reader.expectEnd()
        // The fields were filtered (hop-by-hop dropped) when the representation was made, before
        // it was encoded: only their wire form is made again.
        return Representation(
            status: status, keptHeaders: HTTPHeaders(fields).withSerializedFields(), body: body,
            method: method.isEmpty ? nil : HTTPMethod(rawValue: method))
    }
}
