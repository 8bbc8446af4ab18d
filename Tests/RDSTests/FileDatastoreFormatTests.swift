import Foundation
import Testing

@testable import RDS

struct FileDatastoreFormatTests {
    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (String(repeating: "a", count: 119), "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ])
    func sha256_MatchesKnownDigest(message: String, digest: String) {
        #expect(Self.hex(SHA256.digest(Array(message.utf8))) == digest)
    }

    @Test func crc32_MatchesTheStandardCheckValue() {
        let check = Array("123456789".utf8).withUnsafeBytes { CRC32.checksum($0) }
        #expect(check == 0xCBF4_3926)
    }

    @Test func crc32_EqualsTheBitwiseDefinition_AtEveryLengthAndAlignment() {
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
        for start in 0..<9 {
            for end in stride(from: start, through: bytes.count, by: 7) {
                let slice = Array(bytes[start..<end])
                var bitwise: UInt32 = 0xFFFF_FFFF
                for byte in slice {
                    bitwise ^= UInt32(byte)
                    for _ in 0..<8 { bitwise = bitwise & 1 == 1 ? (bitwise >> 1) ^ 0xEDB8_8320 : bitwise >> 1 }
                }
                let fast = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
                #expect(fast == ~bitwise, "bytes \(start)..<\(end)")
            }
        }
    }

    /// Reference values from the `xxhash` Python package (the C library): every tail path (the
    /// 32-byte rounds, eight, four and single bytes) and a seed.
    @Test(arguments: [
        (0, 0, 0xEF46_DB37_51D8_E999), (1, 0, 0x1F25_C8D0_BC1F_4BB6), (4, 0, 0x9BB6_4B7D_66EE_9FDA),
        (7, 0, 0x9A7B_1499_59CE_60D8), (8, 0, 0xDAB9_9D95_C6F9_0092), (13, 0, 0xF78B_0313_08F5_BFC8),
        (31, 0, 0xA2AA_5F33_CC4A_6119), (32, 0, 0x23C3_C17E_F790_FD97), (39, 0, 0x880B_BEEA_606E_4B37),
    ] as [(Int, UInt64, UInt64)])
    func xxh64_MatchesTheReferenceImplementation(length: Int, seed: UInt64, expected: UInt64) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        #expect(bytes.withUnsafeBytes { XXH64.hash($0, seed: seed) } == expected)
    }

    @Test func xxh64_MatchesTheReferenceImplementation_ForTextLongInputAndASeed() {
        #expect(Array("abc".utf8).withUnsafeBytes { XXH64.hash($0) } == 0x44BC_2CF5_AD77_0999)
        #expect(Array("abc".utf8).withUnsafeBytes { XXH64.hash($0, seed: 1) } == 0xBEA9_CA81_9932_8908)
        #expect(Array("123456789".utf8).withUnsafeBytes { XXH64.hash($0) } == 0x8CB8_41DB_40E6_AE83)
        let long = Array((0..<4).flatMap { _ in (0...255).map { UInt8($0) } }) + Array("xyz".utf8)
        #expect(long.withUnsafeBytes { XXH64.hash($0) } == 0xE146_CB31_B65B_C21A)
    }

    private static let entry = CacheEntry<[UInt8]>(
        value: Array("{\"temp\":21}".utf8), storedAt: Date(timeIntervalSinceReferenceDate: 812_345_678.123_456_7),
        expiresAt: Date(timeIntervalSinceReferenceDate: 812_345_738.5),
        validators: Validators(etag: "W/\"abc\"", lastModified: "Tue, 01 Jan 2026 00:00:00 GMT"),
        initialAge: 12.25, mustRevalidate: true, staleWhileRevalidate: 30, staleIfError: 0.5)
    private static let key = Array("weather/london".utf8)

    @Test func decode_ReturnsTheEncodedEntry_BitForBit() {
        let bytes = FileEntryFormat.encode(Self.entry, keyBytes: Self.key)
        #expect(FileEntryFormat.decode(bytes, keyBytes: Self.key) == .entry(Self.entry))
        let bare = CacheEntry<[UInt8]>(value: [], storedAt: Self.entry.storedAt, expiresAt: Self.entry.expiresAt)
        #expect(FileEntryFormat.decode(FileEntryFormat.encode(bare, keyBytes: []), keyBytes: []) == .entry(bare))
    }

    @Test(arguments: [
        Self.entry.validators, Validators(etag: "W/\"abd\"", lastModified: "Tue, 01 Jan 2026 00:00:01 GMT"),
        Validators(etag: "W/\"abc\""), Validators(), nil,
    ] as [Validators?])
    func decode_ReturnsTheStoredValidators_WhateverTheValueHolds(held: Validators?) {
        let bytes = FileEntryFormat.encode(Self.entry, keyBytes: Self.key)
        let decoded = FileEntryFormat.decode(bytes, keyBytes: Self.key, value: { Array($0) }, held: { _ in held })
        #expect(decoded??.validators == Self.entry.validators)
    }

    @Test func decode_ReportsOtherKey_WhenTheStoredKeyDiffers() {
        let bytes = FileEntryFormat.encode(Self.entry, keyBytes: Self.key)
        #expect(FileEntryFormat.decode(bytes, keyBytes: Array("weather/paris".utf8)) == .otherKey)
        #expect(FileEntryFormat.decode(bytes, keyBytes: Array("weather/london/".utf8)) == .otherKey)
    }

    @Test func decode_RejectsEveryTruncation() {
        let bytes = FileEntryFormat.encode(Self.entry, keyBytes: Self.key)
        for length in 0..<bytes.count {
            #expect(FileEntryFormat.decode(Array(bytes[..<length]), keyBytes: Self.key) == .invalid)
        }
        #expect(FileEntryFormat.decode(bytes + [0], keyBytes: Self.key) == .invalid)
    }

    @Test func decode_RejectsEverySingleByteCorruption() {
        let bytes = FileEntryFormat.encode(Self.entry, keyBytes: Self.key)
        for index in bytes.indices {
            var corrupt = bytes
            corrupt[index] ^= 0x20
            #expect(FileEntryFormat.decode(corrupt, keyBytes: Self.key) == .invalid, "byte \(index)")
        }
    }

    @Test func decode_RejectsAnotherVersion_EvenWithAValidChecksum() {
        var bytes = FileEntryFormat.encode(Self.entry, keyBytes: Self.key)
        bytes[4] = 1
        bytes.removeLast(FileEntryFormat.checksumSize)
        FileEntryFormat.appendChecksum(to: &bytes)
        #expect(FileEntryFormat.decode(bytes, keyBytes: Self.key) == .invalid)
    }

    @Test func decode_RejectsHugeLengths_WithoutTrapping() {
        var bytes = FileEntryFormat.encode(Self.entry, keyBytes: Self.key)
        for offset in 8..<16 { bytes[offset] = 0xFF }
        #expect(FileEntryFormat.decode(bytes, keyBytes: Self.key) == .invalid)
    }

    @Test func isEntryFileName_AcceptsOnlyNamesTheDatastoreWrites() {
        typealias Store = FileDatastore<String, String>
        #expect(Store.isEntryFileName("ba7816bf.entry"))
        #expect(!Store.isEntryFileName(".ba7816bf.entry.1f2e.tmp"))
        #expect(!Store.isEntryFileName("notes.txt"))
        #expect(!Store.isEntryFileName("BA7816BF.entry"))
        #expect(!Store.isEntryFileName(".entry"))
        #expect(!Store.isEntryFileName("ab.entry.tmp"))
    }
}
