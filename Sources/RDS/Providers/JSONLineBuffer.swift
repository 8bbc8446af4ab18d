/// Writes one JSON line into memory that was sized for it beforehand (see
/// ``JSONLinesLogger``): each piece is copied at a cursor, with no capacity check or growth per
/// piece, which is most of the cost of appending to an array piece by piece.
struct JSONLineBuffer {
    private let start: UnsafeMutablePointer<UInt8>
    private var cursor: UnsafeMutablePointer<UInt8>

    /// A buffer writing from `start`, which must have room for everything written (see the bounds).
    init(writingAt start: UnsafeMutablePointer<UInt8>) {
        self.start = start
        cursor = start
    }

    /// The bytes written so far.
    var count: Int { cursor - start }

    /// The most bytes ``writeString(_:)`` writes for `text`: the quotes and six per byte (`\u00XX`).
    static func stringBound(_ text: some StringProtocol) -> Int { 2 + 6 * text.utf8.count }

    /// The most bytes ``writeMilliseconds(nanoseconds:)`` writes: a sign, 13 digits of
    /// milliseconds, the point and 6 digits of nanoseconds (32 leaves room).
    static var millisecondsBound: Int { 32 }

    /// The most bytes ``writeValue(_:)`` writes for `value`.
    static func valueBound(_ value: LogValue) -> Int {
        switch value {
        case .string(let text): stringBound(text)
        case .int: 20
        case .double: 32  // at most 24 digits and signs, or a quoted "-Infinity"
        case .bool: 5
        }
    }

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

    /// Writes the bytes of a literal as they are.
    mutating func write(_ literal: StaticString) {
        literal.withUTF8Buffer { write($0) }
    }

    /// Writes the UTF-8 of `text` as it is (text known to need no escape: names of levels, numbers).
    mutating func writeVerbatim(_ text: String) {
        Self.withBytes(of: text) { write($0) }
    }

    /// Runs `body` over the UTF-8 of `text` where it lies (a copy only for a string without
    /// contiguous UTF-8), as the HTTP head writer does: no `var` copy of the string per call. A
    /// substring (a request's path) through its own `withUTF8`: its view's
    /// `withContiguousStorageIfAvailable` runs unspecialised, ~340 instructions a call.
    @inline(__always)
    private static func withBytes(of text: some StringProtocol, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if var substring = text as? Substring { return substring.withUTF8(body) }
        if text.utf8.withContiguousStorageIfAvailable(body) != nil { return }
        var copy = String(text)
        copy.withUTF8(body)
    }

    /// Writes `,"name":`, a field's name after the one before it; `time`, `level` and `event`
    /// as `field.time` (and so on), so that a field never overwrites the envelope.
    mutating func write(name: String) {
        write(UInt8(ascii: ","))
        writeString(Self.isEnvelopeName(name) ? "field." + name : name)
        write(UInt8(ascii: ":"))
    }

    /// Writes `,"name":value`.
    mutating func write(name: String, value: LogValue) {
        write(name: name)
        writeValue(value)
    }

    /// `true` for `time`, `level` and `event`, the envelope's names (told apart by length and first
    /// byte before any comparison: most field names are neither).
    private static func isEnvelopeName(_ name: String) -> Bool {
        let count = name.utf8.count
        guard count == 4 || count == 5, let first = name.utf8.first,
            first == UInt8(ascii: "t") || first == UInt8(ascii: "l") || first == UInt8(ascii: "e")
        else { return false }
        return name == "time" || name == "level" || name == "event"
    }

    /// Writes `text` as a JSON string (RFC 8259 §7): quotes, backslashes and control characters
    /// escaped. The runs between escapes are copied whole (a field value rarely has any).
    mutating func writeString(_ text: some StringProtocol) {
        write(UInt8(ascii: "\""))
        Self.withBytes(of: text) { writeEscaping($0) }
        write(UInt8(ascii: "\""))
    }

    /// `true` when ``writeString(_:)`` writes `text` as it is, between its quotes.
    static func needsNoEscape(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { !holdsEscapedByte($0) }
    }

    /// Writes `bytes` with quotes, backslashes and control characters escaped. Nearly every
    /// string has none, which is told eight bytes at a time and then copied whole.
    private mutating func writeEscaping(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard Self.holdsEscapedByte(bytes) else { return write(bytes) }
        var runStart = 0
        for index in bytes.indices {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            write(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            writeEscape(byte)
            runStart = index + 1
        }
        write(UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// `true` when a byte of `bytes` is below 0x20, a quote or a backslash, tested a word at a
    /// time: the last word overlaps the one before it; fewer than eight bytes are tested one by one.
    private static func holdsEscapedByte(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        // Copying fewer than eight bytes into a word costs a `memcpy` call.
        guard raw.count >= 8 else {
            for byte in raw where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            return false
        }
        var offset = 0
        while offset < raw.count - 8 {
            if holdsEscapedByte(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
            offset += 8
        }
        return holdsEscapedByte(raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self))
    }

    /// `true` when one of the eight bytes of `word` is below 0x20, a quote or a backslash. A byte
    /// below `n` is told by the borrow out of it when `n` is subtracted from every byte: its high
    /// bit turns on where it was off. Borrows start only at such a byte, so the answer is exact;
    /// bytes of 0x80 and above (the UTF-8 of other scripts) never count.
    private static func holdsEscapedByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let controls = (word &- ones &* 0x20) & ~word
        let zeroQuotes = (quotes &- ones) & ~quotes
        let zeroBackslashes = (backslashes &- ones) & ~backslashes
        return (controls | zeroQuotes | zeroBackslashes) & highBits != 0
    }

    /// Writes `value`: a string as a JSON string, numbers as JSON numbers (non-finite ones, which
    /// JSON cannot hold, as the strings `"NaN"`, `"Infinity"` and `"-Infinity"`), booleans.
    mutating func writeValue(_ value: LogValue) {
        switch value {
        case .string(let text): writeString(text)
        case .int(let number):
            if number < 0 { write(UInt8(ascii: "-")) }
            writeDigits(number.magnitude, width: 1)
        case .double(let number) where number.isNaN: write("\"NaN\"")
        case .double(let number) where number.isInfinite: write(number < 0 ? "\"-Infinity\"" : "\"Infinity\"")
        case .double(let number): writeVerbatim(String(number))
        case .bool(let flag): write(flag ? "true" : "false")
        }
    }

    /// Writes a duration of `nanoseconds` in milliseconds: the whole milliseconds, a point and the
    /// rest down to the nanosecond without trailing zeros (`1.5`, `0.0215`, `2005.0`).
    mutating func writeMilliseconds(nanoseconds: Int64) {
        if nanoseconds < 0 { write(UInt8(ascii: "-")) }
        let magnitude = nanoseconds.magnitude
        writeDigits(UInt(magnitude / 1_000_000), width: 1)
        write(UInt8(ascii: "."))
        var rest = UInt(magnitude % 1_000_000)
        var width = 6
        while width > 1, rest % 10 == 0 {
            rest /= 10
            width -= 1
        }
        writeDigits(rest, width: width)
    }

    /// Writes the decimal digits of `value`, left-padded with zeros to `width`: counted first,
    /// then written from the last one back (divisions by the constant 10 only, which compile to
    /// multiplications).
    mutating func writeDigits(_ value: UInt, width: Int) {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        let count = max(digits, width)
        var position = cursor + count
        rest = value
        while position > cursor {
            position -= 1
            position.initialize(to: UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        }
        cursor += count
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// Writes the JSON escape of a quote, a backslash or a control character.
    private mutating func writeEscape(_ byte: UInt8) {
        write(UInt8(ascii: "\\"))
        switch byte {
        case 0x0A: write(UInt8(ascii: "n"))
        case 0x0D: write(UInt8(ascii: "r"))
        case 0x09: write(UInt8(ascii: "t"))
        case 0x08: write(UInt8(ascii: "b"))
        case 0x0C: write(UInt8(ascii: "f"))
        case 0x00..<0x20:
            write("u00")
            Self.hexDigits.withUTF8Buffer { hex in
                write(hex[Int(byte >> 4)])
                write(hex[Int(byte & 0x0F)])
            }
        default: write(byte)
        }
    }
}
