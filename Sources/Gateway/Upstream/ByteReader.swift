import HTTP1
import RDS

/// Reads what ``ByteWriter`` wrote, checking every length against the bytes that are left,
/// so truncated or garbage input throws instead of crashing or allocating without bound.
///
/// It reads the bytes where they lie (an array's storage, or part of an entry file read whole):
/// use it only within the scope that lends them (``read(_:subject:_:)``).
struct ByteReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    /// What is being decoded, for error messages.
    private let subject: String

    /// Creates a reader over `bytes` decoding a `subject` (e.g. "representation").
    private init(_ bytes: UnsafeRawBufferPointer, subject: String) {
        self.bytes = bytes
        self.subject = subject
    }

    /// Runs `decode` with a reader over `bytes`, which must not escape it.
    static func read<Decoded>(
        _ bytes: UnsafeRawBufferPointer, subject: String, _ decode: (inout ByteReader) throws -> Decoded
    ) throws -> Decoded {
        var reader = ByteReader(bytes, subject: subject)
        return try decode(&reader)
    }

    /// ``read(_:subject:_:)`` over the storage of `bytes`.
    static func read<Decoded>(
        _ bytes: [UInt8], subject: String, _ decode: (inout ByteReader) throws -> Decoded
    ) throws -> Decoded {
        try bytes.withUnsafeBytes { try read($0, subject: subject, decode) }
    }

    /// The number of bytes read over, consumed or not (a bound for the counts they hold).
    var count: Int { bytes.count }

    /// `true` once every byte has been consumed.
    var isAtEnd: Bool { offset == bytes.count }

    /// Consumes `expected` or throws.
    mutating func expectRaw(_ expected: [UInt8]) throws {
        guard bytes.count - offset >= expected.count,
            UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + expected.count]).elementsEqual(expected)
        else { throw failure("unknown format or version") }
        offset += expected.count
    }

    /// Reads a LEB128 unsigned integer of at most 64 bits.
    mutating func readVarint() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            guard shift < 64, shift < 63 || byte <= 1 else { throw failure("integer overflows 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        throw failure("truncated integer")
    }

    /// Reads a varint that must lie in `range`.
    mutating func readInt(in range: ClosedRange<Int>) throws -> Int {
        let raw = try readVarint()
        guard raw <= UInt64(range.upperBound), Int(raw) >= range.lowerBound else { throw failure("value out of range") }
        return Int(raw)
    }

    /// Reads a length-prefixed byte run.
    mutating func readBytes() throws -> [UInt8] { Array(try readRun()) }

    /// Reads a length-prefixed string, which must be valid UTF-8.
    mutating func readString() throws -> String {
        guard let string = try readRun().utf8String else { throw failure("invalid UTF-8") }
        return string
    }

    /// Reads a length-prefixed field name: one the HTTP parsers know, spelled as they spell it
    /// (``HTTP1/HTTPKnownFieldNames``), is that literal's string, not one made and checked anew.
    mutating func readFieldName() throws -> String {
        let run = try readRun()
        if let known = HTTPKnownFieldNames.name(run) { return known }
        guard let string = run.utf8String else { throw failure("invalid UTF-8") }
        return string
    }

    /// Reads a length prefix and the run it announces, which must fit in the bytes left.
    private mutating func readRun() throws -> UnsafeRawBufferPointer {
        let count = try readVarint()
        guard count <= UInt64(bytes.count - offset) else { throw failure("length \(count) past the end") }
        let start = offset
        offset += Int(count)
        return UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
    }

    /// Throws unless every byte has been consumed.
    func expectEnd() throws {
        guard isAtEnd else { throw failure("\(bytes.count - offset) trailing bytes") }
    }

    /// A coding error naming the subject and the offset.
    func failure(_ reason: String) -> DatastoreError {
        DatastoreError(
            .codingFailed, "Cannot decode \(subject): \(reason)",
            details: ["offset": String(offset), "length": String(bytes.count)])
    }
}
