/// A Redis stream entry id, `<milliseconds>-<sequence>`, ordered as Redis orders them.
struct StreamID: Sendable, Comparable, CustomStringConvertible {
    /// The time part.
    var milliseconds: UInt64
    /// The sequence within the millisecond.
    var sequence: UInt64

    /// Creates an id.
    init(milliseconds: UInt64, sequence: UInt64) {
        self.milliseconds = milliseconds
        self.sequence = sequence
    }

    /// Parses `1700000000000-3`; `nil` for anything else.
    init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let milliseconds = UInt64(parts[0]), let sequence = UInt64(parts[1]) else { return nil }
        self.init(milliseconds: milliseconds, sequence: sequence)
    }

    /// `0-0`: before every entry.
    static let zero = StreamID(milliseconds: 0, sequence: 0)

    /// `true` for `0-0`.
    var isZero: Bool { milliseconds == 0 && sequence == 0 }

    /// The smallest id after this one.
    var next: StreamID {
        sequence == .max
            ? StreamID(milliseconds: milliseconds + 1, sequence: 0) : StreamID(milliseconds: milliseconds, sequence: sequence + 1)
    }

    /// `milliseconds-sequence`.
    var description: String { "\(milliseconds)-\(sequence)" }

    /// Orders by time, then sequence.
    static func < (lhs: StreamID, rhs: StreamID) -> Bool {
        (lhs.milliseconds, lhs.sequence) < (rhs.milliseconds, rhs.sequence)
    }
}
