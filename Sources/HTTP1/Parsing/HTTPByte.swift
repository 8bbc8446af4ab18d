/// Byte classes of RFC 9110 / RFC 9112 used by the parsers.
enum HTTPByte {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let comma: UInt8 = 0x2C

    /// `tchar` (RFC 9110 §5.6.2): the bytes of methods, field names and codings. Read from a
    /// table of every byte: every byte of every field name written or parsed is tested (a switch
    /// over the ranges cost about three times as much as a bit per ASCII byte; the table, ~600
    /// instructions less than the bits per relayed upstream answer and client request).
    @inline(__always)
    static func isToken(_ byte: UInt8) -> Bool { tokenBytes[Int(byte)] != 0 }

    /// 1 at the index of each `tchar`: `!`, `#` to `'`, `*`, `+`, `-`, `.`, the digits, the
    /// letters, `^`, `_`, `` ` ``, `|` and `~`. A literal, so the array is made at compile time.
    private static let tokenBytes: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x00–0x0F
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x10–0x1F
        0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 1, 1, 0,  // 0x20–0x2F
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,  // 0x30–0x3F
        0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  // 0x40–0x4F
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1,  // 0x50–0x5F
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  // 0x60–0x6F
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0,  // 0x70–0x7F
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x80–0x8F
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x90–0x9F
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xA0–0xAF
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xB0–0xBF
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xC0–0xCF
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xD0–0xDF
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xE0–0xEF
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xF0–0xFF
    ]

    /// `field-vchar / SP / HTAB` (RFC 9110 §5.5): anything but control bytes; obs-text allowed.
    @inline(__always)
    static func isFieldValue(_ byte: UInt8) -> Bool { byte >= 0x20 ? byte != 0x7F : byte == tab }

    /// `SP / HTAB`.
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    /// `DIGIT`'s value, or nil.
    @inline(__always)
    static func digit(_ byte: UInt8) -> Int? { (0x30...0x39).contains(byte) ? Int(byte &- 0x30) : nil }

    /// `HEXDIG`'s value (either case), or nil.
    @inline(__always)
    static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte &- 0x30)
        case 0x41...0x46: Int(byte &- 0x41 &+ 10)
        case 0x61...0x66: Int(byte &- 0x61 &+ 10)
        default: nil
        }
    }

    /// ASCII lower case of a letter; other bytes unchanged.
    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }

    /// `false` when no byte of `raw` is below 0x20 (a tab included) or DEL, tested a word at a
    /// time (the last word overlaps the one before it; fewer than eight bytes are tested one by
    /// one). A byte below `n` is told by the borrow out of it when `n`
    /// is subtracted from every byte; DEL by the borrow out of the zero byte it leaves when XORed
    /// with DEL. Borrows start only at such bytes, so the answer is exact.
    static func mayHoldControlByte(_ raw: UnsafeRawBufferPointer) -> Bool {
        // Copying fewer than eight bytes into a word costs a `memcpy` call.
        guard raw.count >= 8 else {
            for byte in raw where byte < 0x20 || byte == 0x7F { return true }
            return false
        }
        var offset = 0
        while offset < raw.count - 8 {
            if mayHoldControlByte(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
            offset += 8
        }
        return mayHoldControlByte(raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self))
    }

    /// ``mayHoldControlByte(_:)`` for the eight bytes of `word`.
    private static func mayHoldControlByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let controls = (word &- ones &* 0x20) & ~word
        let deletes = word ^ (ones &* 0x7F)
        return (controls | ((deletes &- ones) & ~deletes)) & highBits != 0
    }
}
