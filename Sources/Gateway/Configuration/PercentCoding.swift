/// Byte-level percent-decoding and query-value encoding for route captures (RFC 3986 §2.1).
enum PercentCoding {
    /// `bytes` with each `%XX` (either case) replaced by its byte; a `%` not followed by two hex
    /// digits stays as it is, and `+` stays a plus (this is path decoding).
    static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            let first = bytes.index(after: index)
            if byte == UInt8(ascii: "%"), first != bytes.endIndex, bytes.index(after: first) != bytes.endIndex,
                let high = hexValue(bytes[first]), let low = hexValue(bytes[bytes.index(after: first)])
            {
                result.append(high << 4 | low)
                index = bytes.index(index, offsetBy: 3)
            } else {
                result.append(byte)
                index = first
            }
        }
        return result
    }

    /// A captured path segment as one query value: decoded once, then every byte outside RFC 3986
    /// `unreserved` (letters, digits, `-._~`) percent-encoded, so `&`, `=`, `+`, `#`, `%`, spaces
    /// and non-ASCII bytes can neither end the value nor add a parameter.
    static func queryValue(_ capture: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        for byte in decode(capture.utf8) {
            if isUnreserved(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
