/// A set of field names, matched without case against names given as bytes (a received line's)
/// or as strings: told apart by their length first, where they are asked (most names of a message
/// have a length no name of a small set has), then by a signature of their length and first and
/// last letters, so that most names are compared with none of the set's.
public struct HTTPFieldNames: Sendable {
    /// The names' bytes, one after another.
    private var bytes: [UInt8] = []
    /// Where each name lies in `bytes`.
    private var names: [Range<Int>] = []
    /// Bit `n` set for each name `n` bytes long (bit 0 for those of 64 bytes or more).
    private var lengths: UInt64 = 0
    /// Bit ``signature(_:)`` set for each name.
    private var signatures: UInt64 = 0

    /// The set of `names`.
    public init(_ names: [String]) {
        for name in names { insert(name) }
    }

    /// This set with `names` too.
    public func adding(_ names: [String]) -> HTTPFieldNames {
        var set = self
        for name in names { set.insert(name) }
        return set
    }

    /// Adds `name` to the set.
    private mutating func insert(_ name: String) {
        let start = bytes.count
        bytes += name.utf8
        names.append(start..<bytes.count)
        lengths |= Self.lengthBit(bytes.count - start)
        signatures |= bytes[start...].withUnsafeBytes(Self.signature)
    }

    /// `true` when `name` is one of the set's (without case). Its length is tested where it is
    /// asked, without a call: ~10 instructions less per name of no such length.
    @inline(__always)
    public func contains(_ name: UnsafeRawBufferPointer) -> Bool {
        lengths & Self.lengthBit(name.count) != 0 && containsName(name)
    }

    /// ``contains(_:)`` for a name of a length the set holds.
    private func containsName(_ name: UnsafeRawBufferPointer) -> Bool {
        guard signatures & Self.signature(name) != 0 else { return false }
        return bytes.withUnsafeBytes { all in
            for range in names where range.count == name.count {
                if HTTPHeaders.sameBytesIgnoringCase(name, UnsafeRawBufferPointer(rebasing: all[range])) { return true }
            }
            return false
        }
    }

    /// `true` when `name` is one of the set's (without case), its length tested first too.
    public func contains(_ name: String) -> Bool {
        guard lengths & Self.lengthBit(name.utf8.count) != 0 else { return false }
        var name = name
        return name.withUTF8 { containsName(UnsafeRawBufferPointer($0)) }
    }

    /// Bit `count` of 64 (bit 0 for 64 or more: no name is empty).
    @inline(__always)
    private static func lengthBit(_ count: Int) -> UInt64 {
        // A masking shift: the smart `<<` with an `Int` amount is generic code.
        count < 64 ? 1 &<< UInt64(truncatingIfNeeded: count) : 1
    }

    /// One of 64 bits, from a name's length and its first and last letters (without case).
    private static func signature(_ name: UnsafeRawBufferPointer) -> UInt64 {
        guard let first = name.first, let last = name.last else { return 1 }
        let mixed = name.count &* 31 &+ Int(first | 0x20) &* 7 &+ Int(last | 0x20)
        // A masking shift: the smart `<<` with an `Int` amount is generic code, slower than this whole test.
        return 1 &<< UInt64(truncatingIfNeeded: mixed & 63)
    }
}
