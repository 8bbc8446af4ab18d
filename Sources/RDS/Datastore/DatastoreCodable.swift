/// A type that a ``FileDatastore`` can write to disk as bytes and read back.
public protocol DatastoreCodable: Sendable {
    /// The value as bytes.
    func encodedBytes() throws -> [UInt8]
    /// Rebuilds a value from ``encodedBytes()``.
    /// - Throws: when the bytes are not a valid encoding.
    init(decodingBytes bytes: [UInt8]) throws
}
