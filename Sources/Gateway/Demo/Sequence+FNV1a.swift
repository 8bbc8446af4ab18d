extension Sequence<UInt8> {
    /// The 64-bit FNV-1a hash: stable across processes, unlike `hashValue`.
    var fnv1a: UInt64 {
        reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }
}

extension String {
    /// The FNV-1a hash of the UTF-8 bytes, in hex.
    var hashStable: String { String(utf8.fnv1a, radix: 16) }
}
