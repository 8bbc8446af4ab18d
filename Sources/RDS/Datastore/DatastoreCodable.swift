/// A type that a ``FileDatastore`` can write to disk as bytes and read back.
public protocol DatastoreCodable: Sendable {
    /// The value as bytes.
    func encodedBytes() throws -> [UInt8]
    /// Rebuilds a value from ``encodedBytes()``.
    /// - Throws: when the bytes are not a valid encoding.
    init(decodingBytes bytes: [UInt8]) throws
    /// Rebuilds a value from the bytes of ``encodedBytes()`` where they lie (part of an entry file
    /// read whole), without copying them into an array of their own first. By default they are
    /// copied for ``init(decodingBytes:)``.
    /// - Throws: when the bytes are not a valid encoding.
    init(decodingBytesIn bytes: UnsafeRawBufferPointer) throws
    /// The validators the value holds itself (a representation's `ETag` and `Last-Modified`),
    /// `nil` by default. An entry read from a file takes these strings for the stored validators
    /// with the same text instead of making new ones.
    var heldValidators: Validators? { get }
}

extension DatastoreCodable {
    /// Copies `bytes` and decodes them with ``init(decodingBytes:)``.
    public init(decodingBytesIn bytes: UnsafeRawBufferPointer) throws {
        try self.init(decodingBytes: Array(bytes))
    }

    /// None: a read entry's validators are made from the file's bytes.
    public var heldValidators: Validators? { nil }
}
