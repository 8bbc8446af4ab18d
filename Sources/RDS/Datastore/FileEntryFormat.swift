import Foundation

/// The binary layout of one ``FileDatastore`` file (version 3, integers little-endian).
/// Files of another version read as invalid (a miss), so an upgrade starts with a cold disk cache.
/// The shared (Redis) level stores its values in this same layout, checksum and key check included.
/// Version 3 ends with an XXH64 (``XXH64``) where version 2 ended with a CRC-32.
///
/// ```
/// offset  size  field
///      0     4  magic "RDSE"
///      4     1  version (3)
///      5     1  flags: bit 0 must-revalidate, bit 1 has ETag, bit 2 has Last-Modified,
///                 bit 3 has a stale-while-revalidate window, bit 4 has a stale-if-error window
///      6     2  reserved, 0
///      8     8  key length K
///     16     8  ETag length E
///     24     8  Last-Modified length L
///     32     8  value length V
///     40     8  storedAt   (Double bit pattern, seconds since 2001-01-01 UTC)
///     48     8  expiresAt  (Double bit pattern, same reference)
///     56     8  initialAge (Double bit pattern, seconds)
///     64     8  staleWhileRevalidate (Double bit pattern, seconds; 0 when absent)
///     72     8  staleIfError (Double bit pattern, seconds; 0 when absent)
///     80     K  key bytes, then E ETag bytes, L Last-Modified bytes (UTF-8), V value bytes
///    end     8  XXH64 of every byte before it
/// ```
/// Dates are stored relative to Foundation's reference date so they round-trip bit for bit.
public enum FileEntryFormat {
    /// What a file turned out to hold.
    public enum Decoded: Equatable {
        /// A valid entry for the expected key; the value still in its encoded form.
        case entry(CacheEntry<[UInt8]>)
        /// A valid entry for another key whose name hashes the same (a collision).
        case otherKey
        /// Not a valid version-3 entry: corrupt, truncated, foreign or of another version.
        case invalid
    }

    private static let magic: [UInt8] = Array("RDSE".utf8)
    private static let version: UInt8 = 3
    /// The size of the fixed header, which ``fileSize(header:)`` needs to size the whole file.
    static let headerSize = 80
    /// The size of the checksum that ends a file.
    static let checksumSize = 8

    private enum Flag {
        static let mustRevalidate: UInt8 = 1 << 0
        static let hasETag: UInt8 = 1 << 1
        static let hasLastModified: UInt8 = 1 << 2
        static let hasStaleWhileRevalidate: UInt8 = 1 << 3
        static let hasStaleIfError: UInt8 = 1 << 4
        static let all: UInt8 = mustRevalidate | hasETag | hasLastModified | hasStaleWhileRevalidate | hasStaleIfError
    }

    /// The file contents for `entry`, whose value is already encoded, written at a cursor into
    /// one buffer of their size (no list made for the validators, the lengths or the flags, and
    /// no capacity check per piece: an entry is encoded on every save and renewal).
    public static func encode(_ entry: CacheEntry<[UInt8]>, keyBytes: [UInt8]) -> [UInt8] {
        let (etag, lastModified) = (entry.validators.etag, entry.validators.lastModified)
        var flags: UInt8 = entry.mustRevalidate ? Flag.mustRevalidate : 0
        if etag != nil { flags |= Flag.hasETag }
        if lastModified != nil { flags |= Flag.hasLastModified }
        if entry.staleWhileRevalidate != nil { flags |= Flag.hasStaleWhileRevalidate }
        if entry.staleIfError != nil { flags |= Flag.hasStaleIfError }
        let etagCount = etag?.utf8.count ?? 0
        let lastModifiedCount = lastModified?.utf8.count ?? 0
        let size = headerSize + keyBytes.count + etagCount + lastModifiedCount + entry.value.count + checksumSize
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            let base = UnsafeMutableRawPointer(buffer.baseAddress!)
            var offset = 0
            func put(_ bytes: UnsafeRawBufferPointer) {
                if let start = bytes.baseAddress { (base + offset).copyMemory(from: start, byteCount: bytes.count) }
                offset += bytes.count
            }
            func put<Integer: FixedWidthInteger>(_ value: Integer) {
                withUnsafeBytes(of: value.littleEndian) { put($0) }
            }
            func put(_ text: String?) {
                guard var text else { return }
                text.withUTF8 { put(UnsafeRawBufferPointer($0)) }
            }
            magic.withUnsafeBytes { put($0) }
            put(version)
            put(flags)
            put(UInt16(0))
            put(UInt64(keyBytes.count))
            put(UInt64(etagCount))
            put(UInt64(lastModifiedCount))
            put(UInt64(entry.value.count))
            put(entry.storedAt.timeIntervalSinceReferenceDate.bitPattern)
            put(entry.expiresAt.timeIntervalSinceReferenceDate.bitPattern)
            put(entry.initialAge.bitPattern)
            put((entry.staleWhileRevalidate ?? 0).bitPattern)
            put((entry.staleIfError ?? 0).bitPattern)
            keyBytes.withUnsafeBytes { put($0) }
            put(etag)
            put(lastModified)
            entry.value.withUnsafeBytes { put($0) }
            put(checksum(of: UnsafeRawBufferPointer(start: base, count: offset)))
            initialized = offset
        }
    }

    /// The size of the whole file that a `header` (its first ``headerSize`` bytes)
    /// describes, or `nil` when the header is not one; lets a reader refuse a file whose size
    /// does not match before reading its body.
    static func fileSize(header raw: UnsafeRawBufferPointer) -> Int? {
        guard raw.count >= headerSize, startsWithKnownHeader(raw) else { return nil }
        var total = headerSize + checksumSize
        for field in 0..<4 {
            let length = readUInt64(raw, at: 8 + field * 8)
            guard length <= UInt64(Int.max - total) else { return nil }
            total += Int(length)
        }
        return total
    }

    /// `true` when `raw` (at least eight bytes) starts as a header of this format does: the magic
    /// and this version (compared as one word and one byte), known flags, zero reserved bytes.
    private static func startsWithKnownHeader(_ raw: UnsafeRawBufferPointer) -> Bool {
        raw.loadUnaligned(as: UInt32.self) == magicWord && raw[4] == version && raw[5] & ~Flag.all == 0
            && raw[6] == 0 && raw[7] == 0
    }

    /// ``magic`` as the word it is in memory.
    private static let magicWord: UInt32 = magic.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }

    /// The key bytes a file's `bytes` hold, unvalidated (``decode(_:keyBytes:)`` checks them), or
    /// `nil` when the header does not describe them.
    static func keyBytes(in bytes: [UInt8]) -> [UInt8]? {
        let size = bytes.withUnsafeBytes { fileSize(header: UnsafeRawBufferPointer(rebasing: $0.prefix(headerSize))) }
        guard let size, size == bytes.count else { return nil }
        let length = bytes.withUnsafeBytes { Int(readUInt64($0, at: 8)) }
        return Array(bytes[headerSize..<(headerSize + length)])
    }

    /// Validates `bytes` and returns the entry they hold if it belongs to `keyBytes`.
    public static func decode(_ bytes: [UInt8], keyBytes: [UInt8]) -> Decoded {
        switch decode(bytes, keyBytes: keyBytes, value: { Array($0) }) {
        case .some(.some(let entry)): .entry(entry)
        case .some(.none): .otherKey
        case .none: .invalid
        }
    }

    /// Validates `bytes` and decodes the entry they hold with `value`, which gets the value's
    /// bytes where they lie (no copy of them is made here): `.some(entry)`, `.some(nil)` for
    /// another key's entry, `nil` for bytes that are not a valid entry or a value that `value`
    /// cannot decode. A stored validator with the same text as the one `held` finds in the decoded
    /// value is that value's string, not a new one.
    static func decode<Value>(
        _ bytes: [UInt8], keyBytes: [UInt8], value: (UnsafeRawBufferPointer) throws -> Value,
        held: (Value) -> Validators? = { _ in nil }
    ) -> CacheEntry<Value>?? {
        bytes.withUnsafeBytes { raw -> CacheEntry<Value>?? in
            do {
                guard let parsed = try parse(raw, keyBytes: keyBytes) else { return .some(nil) }
                let decoded = try value(UnsafeRawBufferPointer(rebasing: raw[parsed.entry.value]))
                let known = held(decoded)
                let validators = Validators(
                    etag: try validator(raw, parsed.etag, known: known?.etag),
                    lastModified: try validator(raw, parsed.lastModified, known: known?.lastModified))
                return .some(parsed.entry.withValue(decoded, validators: validators))
            } catch {
                return nil
            }
        }
    }

    private struct InvalidEntry: Error {}

    /// The entry in `raw` with the range of its value's bytes and no validators yet, with the
    /// ranges of its validators' bytes (`nil` when absent), or `nil` for another key's entry.
    /// - Throws: ``InvalidEntry``.
    private static func parse(_ raw: UnsafeRawBufferPointer, keyBytes: [UInt8]) throws
        -> (entry: CacheEntry<Range<Int>>, etag: Range<Int>?, lastModified: Range<Int>?)?
    {
        guard raw.count >= headerSize + checksumSize, startsWithKnownHeader(raw) else { throw InvalidEntry() }
        let flags = raw[5]
        let checksumOffset = raw.count - checksumSize
        // The four variable fields, one after the other (no list made for their ranges).
        var end = headerSize
        func nextField(_ index: Int) throws -> Range<Int> {
            let length = readUInt64(raw, at: 8 + index * 8)
            guard length <= UInt64(checksumOffset - end) else { throw InvalidEntry() }
            end += Int(length)
            return (end - Int(length))..<end
        }
        let (key, etag, lastModified, value) = (try nextField(0), try nextField(1), try nextField(2), try nextField(3))
        let covered = UnsafeRawBufferPointer(rebasing: raw[..<checksumOffset])
        guard end == checksumOffset, checksum(of: covered) == readUInt64(raw, at: checksumOffset) else {
            throw InvalidEntry()
        }
        guard Self.bytes(UnsafeRawBufferPointer(rebasing: raw[key]), equal: keyBytes) else { return nil }
        let entry = CacheEntry(
            value: value,
            storedAt: Date(timeIntervalSinceReferenceDate: Double(bitPattern: readUInt64(raw, at: 40))),
            expiresAt: Date(timeIntervalSinceReferenceDate: Double(bitPattern: readUInt64(raw, at: 48))),
            initialAge: Double(bitPattern: readUInt64(raw, at: 56)),
            mustRevalidate: flags & Flag.mustRevalidate != 0,
            staleWhileRevalidate: flags & Flag.hasStaleWhileRevalidate != 0
                ? Double(bitPattern: readUInt64(raw, at: 64)) : nil,
            staleIfError: flags & Flag.hasStaleIfError != 0 ? Double(bitPattern: readUInt64(raw, at: 72)) : nil)
        return (
            entry, try validatorRange(etag, present: flags & Flag.hasETag != 0),
            try validatorRange(lastModified, present: flags & Flag.hasLastModified != 0)
        )
    }

    /// `true` when `stored` holds exactly `bytes` (compared in one `memcmp`, not byte by byte
    /// through a generic sequence: every read of an entry file checks its key).
    private static func bytes(_ stored: UnsafeRawBufferPointer, equal bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Self.bytes(stored, equal: $0) }
    }

    /// `true` when `stored` and `bytes` hold the same bytes (one `memcmp`).
    private static func bytes(_ stored: UnsafeRawBufferPointer, equal bytes: UnsafeRawBufferPointer) -> Bool {
        guard stored.count == bytes.count else { return false }
        guard let lhs = stored.baseAddress, let rhs = bytes.baseAddress else { return true }
        return memcmp(lhs, rhs, bytes.count) == 0
    }

    /// A validator's range, `nil` when absent.
    /// - Throws: ``InvalidEntry`` when an absent validator has bytes.
    private static func validatorRange(_ range: Range<Int>, present: Bool) throws -> Range<Int>? {
        guard present else {
            guard range.isEmpty else { throw InvalidEntry() }
            return nil
        }
        return range
    }

    /// The text of the validator at `range` of `raw` (`nil` when absent): `known` when it holds
    /// the same bytes, else a new string.
    /// - Throws: ``InvalidEntry`` when the bytes are not UTF-8.
    private static func validator(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>?, known: String?) throws
        -> String?
    {
        guard let range else { return nil }
        let bytes = UnsafeRawBufferPointer(rebasing: raw[range])
        if var known, known.withUTF8({ Self.bytes(bytes, equal: UnsafeRawBufferPointer($0)) }) { return known }
        guard let text = bytes.utf8String else { throw InvalidEntry() }
        return text
    }

    /// Appends the checksum of `bytes` to them (tests use it to forge files that only fail other checks).
    static func appendChecksum(to bytes: inout [UInt8]) {
        let value = bytes.withUnsafeBytes { checksum(of: $0) }
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    /// The checksum that ends the encoded `contents` (``encode(_:keyBytes:)``), which covers every
    /// byte before it: the entry's version, as the shared level announces it.
    public static func storedChecksum(ofEncoded contents: [UInt8]) -> UInt64 {
        contents.withUnsafeBytes { readUInt64($0, at: $0.count - checksumSize) }
    }

    /// The checksum of the bytes before it in a file.
    private static func checksum(of bytes: UnsafeRawBufferPointer) -> UInt64 { XXH64.hash(bytes) }

    private static func readUInt64(_ raw: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
