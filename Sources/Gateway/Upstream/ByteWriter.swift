/// Writes the compact binary encoding used by ``Representation`` and ``ResourceKey``: LEB128
/// variable-length unsigned integers and length-prefixed UTF-8 strings and byte runs; and the
/// upstream requests of ``UpstreamRequestHead``, pieces with no prefix.
///
/// The bytes go straight into memory, each piece in one copy (an `append` per piece checks an
/// array's uniqueness and capacity and costs several times the copy: an entry is encoded on every
/// save and renewal): up to a kilobyte onto the stack, then copied into an array of their length;
/// more into the uninitialized storage of the array ``bytes(capacity:_:)`` returns.
struct ByteWriter {
    /// The array's storage.
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// The bytes written so far, or that would have been: past the buffer's end they are only counted.
    private(set) var count = 0

    private init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    /// The bytes `encode` writes, in an array made with room for `capacity` of them (on the stack,
    /// a kilobyte, when `capacity` is at most that); when they need more than that room, `encode`
    /// runs once more with room for exactly what it wrote (it must write the same pieces each time).
    static func bytes(capacity: Int, _ encode: (inout ByteWriter) -> Void) -> [UInt8] {
        // Up to a kilobyte (a key) is written on the stack and copied into an array of its
        // length: an array made uninitialized is allocated by the standard library's
        // unspecialised code, which looks its storage type up at run time (~300 instructions).
        guard capacity > stackBytes else {
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: stackBytes) { memory in
                var writer = ByteWriter(memory)
                encode(&writer)
                guard writer.fits else { return Self.bytes(capacity: writer.count, encode) }
                return Array(UnsafeBufferPointer(rebasing: memory[..<writer.count]))
            }
        }
        var needed: Int?
        let bytes = [UInt8](unsafeUninitializedCapacity: max(0, capacity)) { buffer, initialized in
            var writer = ByteWriter(buffer)
            encode(&writer)
            if writer.fits {
                initialized = writer.count
            } else {
                initialized = 0
                needed = writer.count
            }
        }
        guard let needed else { return bytes }
        return Self.bytes(capacity: needed, encode)
    }

    /// The most bytes ``bytes(capacity:_:)`` writes on the stack: the size up to which the
    /// standard library allocates temporary memory there without asking the runtime whether it may.
    private static var stackBytes: Int { 1_024 }

    /// `true` while every byte written so far is in the buffer.
    private var fits: Bool { count <= buffer.count }

    /// Writes raw bytes with no length prefix (magic numbers).
    mutating func writeRaw(_ raw: [UInt8]) {
        raw.withUnsafeBufferPointer { put($0) }
    }

    /// Writes an unsigned integer in LEB128 form.
    mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            put(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        put(UInt8(rest))
    }

    /// Writes a length-prefixed byte run.
    mutating func writeBytes(_ run: [UInt8]) {
        writeVarint(UInt64(run.count))
        run.withUnsafeBufferPointer { put($0) }
    }

    /// Writes a length-prefixed UTF-8 string, copied from its own storage in one piece. A native
    /// string is read where it lies, without the copy of the string (and its reference count)
    /// that `withUTF8` needs.
    mutating func writeString(_ string: String) {
        writeVarint(UInt64(string.utf8.count))
        writeRaw(string)
    }

    /// Writes the UTF-8 of `string` with no length prefix, copied from its own storage in one
    /// piece (see ``writeString(_:)``).
    mutating func writeRaw(_ string: String) {
        if string.utf8.withContiguousStorageIfAvailable({ put($0) }) != nil { return }
        var string = string
        string.withUTF8 { put($0) }
    }

    /// Copies `bytes` when they fit, and counts them.
    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.count <= buffer.count &- count, let start = bytes.baseAddress, let base = buffer.baseAddress {
            (base + count).initialize(from: start, count: bytes.count)
        }
        count += bytes.count
    }

    /// Writes one byte when it fits, and counts it.
    private mutating func put(_ byte: UInt8) {
        if count < buffer.count { buffer.initializeElement(at: count, to: byte) }
        count += 1
    }
}
