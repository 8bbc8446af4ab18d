/// The byte-level scanner behind ``CacheControl``:
/// `#( token [ "=" ( token / quoted-string ) ] )` with garbage skipped to the next comma.
struct CacheControlParser {
    /// The directives found so far.
    private(set) var directives: [CacheDirective] = []

    /// Scans one field value (its UTF-8 bytes).
    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        while index < bytes.count {
            index = skip(bytes, from: index) { $0 == UInt8(ascii: ",") || Self.isSpace($0) }
            let nameEnd = skip(bytes, from: index, while: Self.isTokenByte)
            guard nameEnd > index else {
                index = skipToComma(bytes, from: index)
                continue
            }
            let name = String(decoding: bytes[index..<nameEnd], as: UTF8.self)
            index = skip(bytes, from: nameEnd, while: Self.isSpace)
            var value: String?
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index = skip(bytes, from: index + 1, while: Self.isSpace)
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    (value, index) = quotedString(bytes, from: index + 1)
                } else {
                    let valueEnd = skip(bytes, from: index, while: Self.isTokenByte)
                    value = String(decoding: bytes[index..<valueEnd], as: UTF8.self)
                    index = valueEnd
                }
                index = skip(bytes, from: index, while: Self.isSpace)
            }
            if index < bytes.count, bytes[index] != UInt8(ascii: ",") {
                index = skipToComma(bytes, from: index)
                continue
            }
            directives.append(CacheDirective(name: name, value: value))
        }
    }

    /// Reads a quoted string whose opening quote is just before `start`; an unterminated one runs to the end.
    private func quotedString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (String, Int) {
        var unescaped: [UInt8] = []
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return (String(decoding: unescaped, as: UTF8.self), index + 1) }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                index += 1
            }
            unescaped.append(bytes[index])
            index += 1
        }
        return (String(decoding: unescaped, as: UTF8.self), index)
    }

    /// The index after a run of bytes matching `predicate`.
    private func skip(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, while predicate: (UInt8) -> Bool) -> Int {
        var index = start
        while index < bytes.count, predicate(bytes[index]) { index += 1 }
        return index
    }

    /// The index of the next comma outside a quoted string (or the end).
    private func skipToComma(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        var quoted = false
        while index < bytes.count {
            let byte = bytes[index]
            if quoted, byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: ","), !quoted { return index }
            index += 1
        }
        return bytes.count
    }

    /// Space or horizontal tab.
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// A `tchar` of RFC 9110 §5.6.2.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
