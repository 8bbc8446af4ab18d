import RDS

extension ResourceKey: ByteCounted {
    /// The key's text plus a small fixed overhead.
    public var byteCount: Int {
        headers.reduce(repository.utf8.count + path.utf8.count + query.utf8.count + 32) {
            $0 + $1.key.utf8.count + $1.value.utf8.count + 4
        }
    }
}

extension ResourceKey: DatastoreCodable {
    /// `RKY` followed by the format version.
    private static let magic: [UInt8] = [0x52, 0x4B, 0x59, 1]

    /// The compact binary form: magic, repository, path, query, header count, sorted fields.
    /// Equal keys always encode to equal bytes.
    public func encodedBytes() throws -> [UInt8] {
        let sortedHeaders = sortedHeaders
        return ByteWriter.bytes(capacity: byteCount) { writer in
            writer.writeRaw(Self.magic)
            writer.writeString(repository)
            writer.writeString(path)
            writer.writeString(query)
            writer.writeVarint(UInt64(headers.count))
            for field in sortedHeaders {
                writer.writeString(field.name)
                writer.writeString(field.value)
            }
        }
    }

    /// Decodes ``encodedBytes()``.
    /// - Throws: ``DatastoreError`` (`codingFailed`) for truncated, oversized or foreign bytes.
    public init(decodingBytes bytes: [UInt8]) throws {
        self = try ByteReader.read(bytes, subject: "resource key") { reader in
            try reader.expectRaw(Self.magic)
            let repository = try reader.readString()
            let path = try reader.readString()
            let query = try reader.readString()
            let count = try reader.readInt(in: 0...reader.count)
            var headers: [String: String] = [:]
            for _ in 0..<count {
                let name = try reader.readString()
                headers[name] = try reader.readString()
            }
            try reader.expectEnd()
            return ResourceKey(repository: repository, path: path, query: Substring(query), headers: headers)
        }
    }
}
