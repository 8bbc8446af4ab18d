import RDS

/// Reads what ``ByteWriter`` wrote, checking every length against the bytes that are left,
/// so truncated or garbage input throws instead of crashing or allocating without bound.
struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0
    /// What is being decoded, for error messages.
    private let subject: String

    /// Creates a reader over `bytes` decoding a `subject` (e.g. "representation").
    init(_ bytes: [UInt8], subject: String) {
        self.bytes = bytes
        self.subject = subject
    }

    /// `true` once every byte has been consumed.
    var isAtEnd: Bool { offset == bytes.count }

    /// Consumes `expected` or throws.
    mutating func expectRaw(_ expected: [UInt8]) throws {
        guard bytes.count - offset >= expected.count, bytes[offset..<offset + expected.count].elementsEqual(expected)
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
        let run = try readRun()
        // ASCII (nearly every field) is valid UTF-8 as it is: no need for the generic validation.
        if run.allSatisfy({ $0 < 0x80 }) { return String(decoding: run, as: UTF8.self) }
        guard let string = String(validating: run, as: UTF8.self) else { throw failure("invalid UTF-8") }
        return string
    }

    /// Reads a length prefix and the run it announces, which must fit in the bytes left.
    private mutating func readRun() throws -> ArraySlice<UInt8> {
        let count = try readVarint()
        guard count <= UInt64(bytes.count - offset) else { throw failure("length \(count) past the end") }
        let start = offset
        offset += Int(count)
        return bytes[start..<offset]
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
