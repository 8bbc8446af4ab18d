/// SHA-256 (FIPS 180-4), used to name ``FileDatastore`` files and shared-level keys by their key (and
/// by the gateway to fingerprint requests and for HMAC-SHA256 webhook signatures).
///
/// Written here because RDS has no dependencies; the digest of the same bytes is the same in
/// every process and on every run, unlike `hashValue`.
public enum SHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private static let initialState: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    /// The 32-byte digest of `bytes`.
    ///
    /// The state, the message schedule and the padded last blocks live in stack memory, and the
    /// rounds run over pointers (no array made, grown or index-checked): this names a disk entry
    /// file on every save and read of one.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 8 + 64) { words in
            let state = UnsafeMutableBufferPointer(rebasing: words[0..<8])
            let schedule = UnsafeMutableBufferPointer(rebasing: words[8...])
            for index in 0..<8 { state[index] = initialState[index] }
            roundConstants.withUnsafeBufferPointer { constants in
                bytes.withUnsafeBufferPointer { message in
                    let fullBlocks = message.count / 64
                    for block in 0..<fullBlocks {
                        compress(message.baseAddress! + block * 64, state, schedule, constants)
                    }
                    // The rest of the message, 0x80, zeros and the length in bits: one block, or
                    // two when the rest leaves no room for the length.
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                        let rest = message.count - fullBlocks * 64
                        let length = rest < 56 ? 64 : 128
                        tail.initialize(repeating: 0)
                        for index in 0..<rest { tail[index] = message[fullBlocks * 64 + index] }
                        tail[rest] = 0x80
                        let bitLength = UInt64(message.count) &* 8
                        for index in 0..<8 {
                            tail[length - 1 - index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(index * 8))
                        }
                        for offset in stride(from: 0, to: length, by: 64) {
                            compress(UnsafePointer(tail.baseAddress! + offset), state, schedule, constants)
                        }
                    }
                }
            }
            // Written on the stack, then copied into an array of its length: an array made
            // uninitialized is allocated by the standard library's unspecialised code, which looks
            // its storage type up at run time (~300 instructions more per digest).
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digest in
                for (index, word) in state.enumerated() {
                    digest[index * 4] = UInt8(truncatingIfNeeded: word >> 24)
                    digest[index * 4 + 1] = UInt8(truncatingIfNeeded: word >> 16)
                    digest[index * 4 + 2] = UInt8(truncatingIfNeeded: word >> 8)
                    digest[index * 4 + 3] = UInt8(truncatingIfNeeded: word)
                }
                return Array(UnsafeBufferPointer(digest))
            }
        }
    }

    /// Runs the 64 rounds over the 64-byte `block`, updating `state`; `w` is room for the message
    /// schedule (64 words), `k` the round constants. The rounds go eight at a time, the eight
    /// working variables changing roles instead of moving along each round.
    private static func compress(
        _ block: UnsafePointer<UInt8>, _ state: UnsafeMutableBufferPointer<UInt32>,
        _ w: UnsafeMutableBufferPointer<UInt32>, _ k: UnsafeBufferPointer<UInt32>
    ) {
        for index in 0..<16 {
            w[index] = UInt32(bigEndian: UnsafeRawPointer(block + index * 4).loadUnaligned(as: UInt32.self))
        }
        for index in 16..<64 {
            let s0 = rotate(w[index - 15], 7) ^ rotate(w[index - 15], 18) ^ (w[index - 15] >> 3)
            let s1 = rotate(w[index - 2], 17) ^ rotate(w[index - 2], 19) ^ (w[index - 2] >> 10)
            w[index] = w[index - 16] &+ s0 &+ w[index - 7] &+ s1
        }
        var a = state[0], b = state[1], c = state[2], d = state[3]
        var e = state[4], f = state[5], g = state[6], h = state[7]
        for index in stride(from: 0, to: 64, by: 8) {
            round(a, b, c, &d, e, f, g, &h, k[index] &+ w[index])
            round(h, a, b, &c, d, e, f, &g, k[index + 1] &+ w[index + 1])
            round(g, h, a, &b, c, d, e, &f, k[index + 2] &+ w[index + 2])
            round(f, g, h, &a, b, c, d, &e, k[index + 3] &+ w[index + 3])
            round(e, f, g, &h, a, b, c, &d, k[index + 4] &+ w[index + 4])
            round(d, e, f, &g, h, a, b, &c, k[index + 5] &+ w[index + 5])
            round(c, d, e, &f, g, h, a, &b, k[index + 6] &+ w[index + 6])
            round(b, c, d, &e, f, g, h, &a, k[index + 7] &+ w[index + 7])
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }

    /// One round, with `a` … `h` in their roles of the round: `d` becomes the next round's `e`
    /// and `h` its `a`; the others keep their values and take the next role along.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
        _ h: inout UInt32, _ constantAndWord: UInt32
    ) {
        let choice = g ^ (e & (f ^ g))
        let t1 = h &+ (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) &+ choice &+ constantAndWord
        let majority = (a & b) | (c & (a | b))
        let t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) &+ majority
        d &+= t1
        h = t1 &+ t2
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }
}
