/// A set of field names, matched without case against names given as bytes (a received line's)
/// or as strings: told apart by a signature of their length and first and last letters first, so that
/// most names are compared with none of the set's.
public struct HTTPFieldNames: Sendable {
    /// The names' bytes, one after another.
    private let bytes: [UInt8]
    /// Where each name lies in `bytes`.
    private let names: [Range<Int>]
    /// Bit ``signature(_:)`` set for each name.
    private let signatures: UInt64

    /// The set of `names`.
    public init(_ names: [String]) {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        var signatures: UInt64 = 0
        for name in names {
            let start = bytes.count
            bytes += name.utf8
            ranges.append(start..<bytes.count)
            signatures |= bytes[start...].withUnsafeBytes(Self.signature)
        }
        self.bytes = bytes
        self.names = ranges
        self.signatures = signatures
    }

    /// `true` when `name` is one of the set's (without case).
    public func contains(_ name: UnsafeRawBufferPointer) -> Bool {
        guard signatures & Self.signature(name) != 0 else { return false }
        return bytes.withUnsafeBytes { all in
            for range in names where range.count == name.count {
                if HTTPHeaders.sameBytesIgnoringCase(name, UnsafeRawBufferPointer(rebasing: all[range])) { return true }
            }
            return false
        }
    }

    /// `true` when `name` is one of the set's (without case).
    public func contains(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { contains(UnsafeRawBufferPointer($0)) }
    }

    /// One of 64 bits, from a name's length and its first and last letters (without case).
    private static func signature(_ name: UnsafeRawBufferPointer) -> UInt64 {
        guard let first = name.first, let last = name.last else { return 1 }
        let mixed = name.count &* 31 &+ Int(first | 0x20) &* 7 &+ Int(last | 0x20)
        // A masking shift: the smart `<<` with an `Int` amount is generic code, slower than this whole test.
        return 1 &<< UInt64(truncatingIfNeeded: mixed & 63)
    }
}
