/// An ordered list of header fields with case-insensitive name lookup.
///
/// Order and repeated names are kept as received; names keep their original spelling.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in order.
    public private(set) var fields: [HTTPField]
    /// The wire form of the leading fields, while still true to them: appending keeps it,
    /// removing one of the fields it stands for drops it.
    private(set) var serialized: HTTPSerializedFields?

    /// Creates headers from fields.
    public init(_ fields: [HTTPField] = []) { self.fields = fields }

    /// Creates headers from `(name, value)` pairs.
    public init(_ pairs: [(name: String, value: String)]) {
        self.fields = pairs.map { HTTPField(name: $0.name, value: $0.value) }
    }

    /// Creates headers from a literal.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { HTTPField(name: $0.0, value: $0.1) }
    }

    /// The first value for `name` (case-insensitive); setting replaces every field of that name,
    /// and `nil` removes them.
    public subscript(name: String) -> String? {
        @inlinable get { firstIndex(named: name).map { fields[$0].value } }
        set {
            remove(name)
            if let newValue { fields.append(HTTPField(name: name, value: newValue)) }
        }
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        var values: [String] = []
        forEachValue(for: name) { values.append($0) }
        return values
    }

    /// Calls `body` with every value for `name`, in order, without making a list of them.
    public func forEachValue(for name: String, _ body: (String) -> Void) {
        // One pass over the fields in place, lengths first, as `firstIndex(named:)` (iterating the
        // array would copy every field).
        let length = name.utf8.count
        fields.withUnsafeBufferPointer { fields in
            for index in fields.indices where fields[index].name.utf8.count == length {
                guard Self.sameBytesIgnoringCase(fields[index].name.utf8, name.utf8) else { continue }
                body(fields[index].value)
            }
        }
    }

    /// Appends a field, keeping earlier ones of the same name.
    public mutating func add(name: String, value: String) { fields.append(HTTPField(name: name, value: value)) }

    /// Makes room for `count` fields in all, so that appending up to that many copies no shared
    /// fields and grows no storage (one copy instead of one per appended field).
    public mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// Removes every field named `name` (without copying shared fields when there is none).
    public mutating func remove(_ name: String) {
        guard let first = firstIndex(named: name) else { return }
        if let serialized, first < serialized.count { self.serialized = nil }
        fields.removeAll { Self.equalsIgnoringCase($0.name, name) }
    }

    /// These headers with their wire form made now, for headers that are written many times: a
    /// response carrying them (or them plus appended fields) gets its head by copying bytes.
    /// Equality, hashing and every lookup are unchanged.
    public func withSerializedFields() -> HTTPHeaders {
        var headers = self
        headers.serialized = HTTPSerializedFields(fields)
        return headers
    }

    /// These headers with the wire form of `previous` when it is theirs too: the same fields in
    /// the same order, differing at most in the values of fields the wire form leaves out
    /// (`Date`, `Server`), as a stored answer renewed by a 304 usually does. Its bytes are then
    /// shared, not made again; `nil` when they would differ or `previous` has no wire form of
    /// all its fields.
    public func sharingSerializedFields(of previous: HTTPHeaders) -> HTTPHeaders? {
        guard let wireForm = previous.serialized,
            let shared = HTTPSerializedFields(sharing: wireForm, of: previous.fields, for: fields)
        else { return nil }
        var headers = self
        headers.serialized = shared
        return headers
    }

    /// `true` when a field named `name` is present.
    @inlinable public func contains(_ name: String) -> Bool { firstIndex(named: name) != nil }

    /// The position of the first field named `name`: a plain loop telling lengths apart first
    /// over the fields in place (a predicate closure per field, and a copy of each field, cost more than most comparisons).
    /// Inlinable, as ``contains(_:)`` and the subscript's getter are: a look-up from another module
    /// (the gateway makes several per request, mostly for fields a request does not hold) then
    /// costs no calls, and a literal name's length is known.
    @inlinable func firstIndex(named name: String) -> Int? {
        let length = name.utf8.count
        return fields.withUnsafeBufferPointer { fields in
            for index in fields.indices where fields[index].name.utf8.count == length {
                if Self.sameBytesIgnoringCase(fields[index].name.utf8, name.utf8) { return index }
            }
            return nil
        }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[HTTPField]> { fields.makeIterator() }

    /// Compares names and values in order; names ignore case (the wire form is not compared).
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { equalsIgnoringCase($0.name, $1.name) && $0.value == $1.value }
    }

    /// Hashes lower-cased names and values.
    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name.lowercased())
            hasher.combine(field.value)
        }
    }

    /// ASCII case-insensitive comparison of two header names (this runs for every field on every
    /// lookup): most pairs differ in length, which is told here without a call; the others are
    /// compared byte by byte over their storage.
    /// Inlinable, so that other modules (HTTP caching rules, the gateway) tell lengths apart
    /// without a call too.
    @inlinable @inline(__always)
    public static func equalsIgnoringCase(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && sameBytesIgnoringCase(lhs.utf8, rhs.utf8)
    }

    /// ``equalsIgnoringCase(_:_:)`` of a string mostly spelled exactly as the short ASCII `usual`
    /// (a name as ``HTTPKnownFieldNames`` gives it, `keep-alive`): compared as strings first, which
    /// two short strings alike bit for bit pass in a few instructions (without case, ~90). Of the
    /// same length as an ASCII string, a string equal to it (canonically) holds its very bytes.
    @inlinable @inline(__always)
    public static func equalsIgnoringCase(_ lhs: String, usually usual: String) -> Bool {
        lhs.utf8.count == usual.utf8.count && (lhs == usual || sameBytesIgnoringCase(lhs.utf8, usual.utf8))
    }

    /// `true` when two views of equal length hold the same bytes but for the case of ASCII letters.
    @usableFromInline static func sameBytesIgnoringCase(_ lhs: String.UTF8View, _ rhs: String.UTF8View) -> Bool {
        let compared = lhs.withContiguousStorageIfAvailable { a in
            rhs.withContiguousStorageIfAvailable { b in
                sameBytesIgnoringCase(UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b))
            }
        }
        if let result = compared ?? nil { return result }
        return zip(lhs, rhs).allSatisfy { $0 == $1 || sameLetter($0, $1) }
    }

    /// ``sameBytesIgnoringCase(_:_:)`` over bytes in memory, eight at a time from eight on (the
    /// last word overlapping the one before it): most names compared are of equal length because
    /// they are equal, byte for byte or but for case, and read whole.
    static func sameBytesIgnoringCase(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count >= 8 else {
            for index in a.indices where a[index] != b[index] {
                guard sameLetter(a[index], b[index]) else { return false }
            }
            return true
        }
        func sameWords(at offset: Int) -> Bool {
            let x = a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let y = b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            return x == y || sameWordIgnoringCase(x, y)
        }
        var offset = 0
        while offset < a.count - 8 {
            guard sameWords(at: offset) else { return false }
            offset += 8
        }
        return sameWords(at: a.count - 8)
    }

    /// `true` when two different words of eight bytes differ only in bit 0x20 of bytes that are
    /// ASCII letters. A byte is a letter when its seven low bits, lower-cased, reach 0x80 with
    /// 0x1F added (from `a` on) but not with 0x05 added (past `z`), and its high bit is clear; no
    /// sum carries out of its byte.
    private static func sameWordIgnoringCase(_ x: UInt64, _ y: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let difference = x ^ y
        guard difference & ~(ones &* 0x20) == 0 else { return false }
        let low = (x | ones &* 0x20) & (ones &* 0x7F)
        let letters = (low &+ ones &* 0x1F) & ~(low &+ ones &* 0x05) & ~x & (ones &* 0x80)
        // Each differing bit, moved up to its byte's high bit, must be a letter's.
        return (difference &<< 2) & ~letters == 0
    }

    /// `true` when two different bytes are the same ASCII letter in different case.
    private static func sameLetter(_ a: UInt8, _ b: UInt8) -> Bool {
        let folded = a | 0x20
        return folded == b | 0x20 && folded >= 0x61 && folded <= 0x7A
    }
}
