extension Array: ByteCounted where Element == UInt8 {
    /// The number of bytes.
    public var byteCount: Int { count }
}

extension Array: DatastoreCodable where Element == UInt8 {
    /// The bytes themselves.
    public func encodedBytes() -> [UInt8] { self }

    /// Takes the bytes as they are.
    public init(decodingBytes bytes: [UInt8]) { self = bytes }
}
