/// Appends the compact binary encoding used by ``Representation`` and ``ResourceKey``:
/// LEB128 variable-length unsigned integers and length-prefixed UTF-8 strings and byte runs.
struct ByteWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    /// Creates a writer, reserving room for `capacity` bytes.
    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    /// Appends raw bytes with no length prefix (magic numbers).
    mutating func writeRaw(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }

    /// Appends an unsigned integer in LEB128 form.
    mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Appends a length-prefixed byte run.
    mutating func writeBytes(_ run: [UInt8]) {
        run.withUnsafeBufferPointer { writeRun($0) }
    }

    /// Appends a length-prefixed UTF-8 string, copied from its own storage in one piece (an
    /// entry's fields are written on every save and renewal). A native string is read where it
    /// lies, without the copy of the string (and its reference count) that `withUTF8` needs.
    mutating func writeString(_ string: String) {
        if string.utf8.withContiguousStorageIfAvailable({ writeRun($0) }) != nil { return }
        var string = string
        string.withUTF8 { writeRun($0) }
    }

    /// Appends a length-prefixed run of bytes that lie in memory.
    private mutating func writeRun(_ run: UnsafeBufferPointer<UInt8>) {
        writeVarint(UInt64(run.count))
        bytes.append(contentsOf: run)
    }
}
