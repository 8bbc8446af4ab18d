/// XXH64 (xxHash, 64 bits, by Yann Collet; the published algorithm, seed 0 unless told), the
/// checksum of a ``FileDatastore`` entry: four independent lanes over 32 bytes a round, about a
/// sixth of the instructions of CRC-32 eight bytes at a time over a 4 KB entry, which every read
/// of a disk entry checks. It tells a torn or corrupt file, not a forged one.
public enum XXH64 {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The hash of `bytes`.
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        var offset = 0
        var hash: UInt64
        if bytes.count >= 32, let base = bytes.baseAddress {
            var lanes = (seed &+ prime1 &+ prime2, seed &+ prime2, seed, seed &- prime1)
            // Stripes counted up front and walked by pointer: no overflow check per stripe.
            let stripes = bytes.count / 32
            var stripe = base
            for _ in 0..<stripes {
                lanes.0 = round(lanes.0, word(stripe, 0))
                lanes.1 = round(lanes.1, word(stripe, 8))
                lanes.2 = round(lanes.2, word(stripe, 16))
                lanes.3 = round(lanes.3, word(stripe, 24))
                stripe += 32
            }
            offset = stripes &* 32
            hash = rotate(lanes.0, 1) &+ rotate(lanes.1, 7) &+ rotate(lanes.2, 12) &+ rotate(lanes.3, 18)
            hash = merge(merge(merge(merge(hash, lanes.0), lanes.1), lanes.2), lanes.3)
        } else {
            hash = seed &+ prime5
        }
        hash &+= UInt64(bytes.count)
        while bytes.count - offset >= 8 {
            hash = rotate(hash ^ round(0, word(bytes, offset)), 27) &* prime1 &+ prime4
            offset += 8
        }
        if bytes.count - offset >= 4 {
            let half = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            hash = rotate(hash ^ (half &* prime1), 23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < bytes.count {
            hash = rotate(hash ^ (UInt64(bytes[offset]) &* prime5), 11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        return hash ^ (hash >> 32)
    }

    private static func round(_ lane: UInt64, _ input: UInt64) -> UInt64 {
        rotate(lane &+ input &* prime2, 31) &* prime1
    }

    private static func merge(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* prime1 &+ prime4
    }

    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    private static func word(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }
}
