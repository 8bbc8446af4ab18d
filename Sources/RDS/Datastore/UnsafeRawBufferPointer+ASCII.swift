extension UnsafeRawBufferPointer {
    /// `true` when every byte is below 0x80 (ASCII, valid UTF-8 as it is): tested eight bytes at
    /// a time, then byte by byte. Decoding a stored entry tests each of its strings so.
    public var isASCII: Bool {
        guard let base = baseAddress else { return true }
        var offset = 0
        while count - offset >= 8 {
            guard base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 else {
                return false
            }
            offset &+= 8
        }
        while offset < count {
            guard base.load(fromByteOffset: offset, as: UInt8.self) < 0x80 else { return false }
            offset &+= 1
        }
        return true
    }

    /// The bytes as a string when they are valid UTF-8, else `nil`. ASCII (nearly every stored
    /// string) is valid UTF-8 as it is, and is taken without the generic validation.
    public var utf8String: String? {
        isASCII ? String(decoding: self, as: UTF8.self) : String(validating: self, as: UTF8.self)
    }
}
