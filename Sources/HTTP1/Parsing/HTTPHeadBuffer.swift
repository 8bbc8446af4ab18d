/// Writes a message head into memory sized for it beforehand (see ``HTTPSerializer``): each
/// piece is copied at a cursor, with no capacity check or growth per piece, which is most of the
/// cost of appending to an array piece by piece. Every `write` needs room for what it writes.
struct HTTPHeadBuffer {
    private let start: UnsafeMutablePointer<UInt8>
    private var cursor: UnsafeMutablePointer<UInt8>

    /// A buffer writing from `start`.
    init(writingAt start: UnsafeMutablePointer<UInt8>) {
        self.start = start
        cursor = start
    }

    /// The bytes written so far.
    var count: Int { cursor - start }

    /// What `write` writes (at most `bound` bytes), as an array. Up to ``stackBytes`` are written
    /// on the stack and copied into an array of their length, which the standard library
    /// allocates in code specialised for bytes; `[UInt8](unsafeUninitializedCapacity:)` allocates
    /// through its unspecialised code, which looks the storage type up on every call (~350
    /// instructions more per response head). Longer messages are written in place that way.
    static func bytes(bound: Int, _ write: (inout HTTPHeadBuffer) -> Void) -> [UInt8] {
        guard bound <= stackBytes else {
            return [UInt8](unsafeUninitializedCapacity: bound) { memory, initialized in
                var buffer = HTTPHeadBuffer(writingAt: memory.baseAddress!)
                write(&buffer)
                initialized = buffer.count
            }
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: stackBytes) { memory in
            var buffer = HTTPHeadBuffer(writingAt: memory.baseAddress!)
            write(&buffer)
            return Array(UnsafeBufferPointer(rebasing: memory[..<buffer.count]))
        }
    }

    /// The most bytes ``bytes(bound:_:)`` writes on the stack: the size up to which the standard
    /// library allocates temporary memory there without asking the runtime whether it may.
    static let stackBytes = 1_024

    /// The most bytes ``writeField(_:_:)`` writes for a field: `name: value\r\n`.
    static func fieldBound(_ name: String, _ value: String) -> Int { name.utf8.count + value.utf8.count + 4 }

    /// Writes one byte.
    mutating func write(_ byte: UInt8) {
        cursor.initialize(to: byte)
        cursor += 1
    }

    /// Writes `bytes` as they are.
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        cursor.initialize(from: base, count: bytes.count)
        cursor += bytes.count
    }

    /// Writes the bytes of an array as they are.
    mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    /// Writes the UTF-8 of `text` as it is.
    mutating func write(_ text: String) {
        Self.withBytes(of: text) { write($0) }
    }

    /// Runs `body` over the UTF-8 of `text` where it lies (a copy only for a string without
    /// contiguous UTF-8): no `var` copy of the string and no uniqueness check per call.
    @inline(__always)
    private static func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        return copy.withUTF8(body)
    }

    /// `\r\n`.
    mutating func writeLineEnd() {
        write(HTTPByte.cr)
        write(HTTPByte.lf)
    }

    /// `name: value\r\n`; a name that is not a token (RFC 9110 §5.6.2) writes nothing, and
    /// control bytes in the value become spaces, so no field can split a message.
    mutating func writeField(_ name: String, _ value: String) {
        let isToken = Self.withBytes(of: name) { bytes in
            guard Self.isToken(bytes) else { return false }
            write(bytes)
            return true
        }
        guard isToken else { return }
        write(UInt8(ascii: ":"))
        write(HTTPByte.space)
        Self.withBytes(of: value) { bytes in
            let start = cursor
            write(bytes)
            // Values nearly always are clean, which is told eight bytes at a time; the others are
            // checked byte by byte where they were copied to (plain loops: a predicate passed to
            // `allSatisfy` costs a call per byte).
            guard HTTPByte.mayHoldControlByte(UnsafeRawBufferPointer(bytes)) else { return }
            for index in 0..<bytes.count where !HTTPByte.isFieldValue(start[index]) {
                start[index] = HTTPByte.space
            }
        }
        writeLineEnd()
    }

    /// `name: value\r\n` of a field line a parser has validated (``HTTPFieldLines``): its name
    /// is a token and its value holds no control byte, so it is written as it is, as
    /// ``writeField(_:_:)`` would write it.
    mutating func writeValidatedField(_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) {
        write(name.assumingMemoryBound(to: UInt8.self))
        write(UInt8(ascii: ":"))
        write(HTTPByte.space)
        write(value.assumingMemoryBound(to: UInt8.self))
        writeLineEnd()
    }

    /// `true` when `bytes` are a non-empty token.
    private static func isToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        for byte in bytes where !HTTPByte.isToken(byte) { return false }
        return true
    }

    /// The decimal digits of `value` (0 or more), at most 19.
    mutating func writeDecimal(_ value: Int) {
        var rest = max(0, value)
        var digits = 1
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        rest = max(0, value)
        for offset in stride(from: digits - 1, through: 0, by: -1) {
            (cursor + offset).initialize(to: UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        }
        cursor += digits
    }
}
