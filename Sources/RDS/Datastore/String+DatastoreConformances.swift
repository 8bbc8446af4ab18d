extension String: ByteCounted {
    /// The length of the UTF-8 encoding.
    public var byteCount: Int { utf8.count }
}

extension String: DatastoreCodable {
    /// The UTF-8 encoding.
    public func encodedBytes() -> [UInt8] { Array(utf8) }

    /// Decodes UTF-8 bytes.
    /// - Throws: ``DatastoreError`` (`codingFailed`) when the bytes are not valid UTF-8.
    public init(decodingBytes bytes: [UInt8]) throws {
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw DatastoreError(.codingFailed, "The stored bytes are not valid UTF-8")
        }
        self = string
    }
}
