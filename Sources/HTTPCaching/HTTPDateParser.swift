import Foundation

/// Reads HTTP dates (RFC 9110 §5.6.7) strictly, in exactly the three formats a recipient must
/// accept; anything else is `nil`, which callers treat as a date in the past (an `Expires` that
/// does not parse means "already expired"). Pure arithmetic, no `DateFormatter`, no locale.
/// (Writing dates is `HTTP1.HTTPDate`'s job.)
public enum HTTPDateParser {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    /// The three-letter names as numbers (``code(_:)``), compared without making strings.
    private static let monthCodes = months.map { code($0.utf8) }
    private static let shortDayCodes = shortDays.map { code($0.utf8) }
    /// The text last read by ``parseRecent(_:)`` on each thread, and its date.
    private static let recent = ThreadMemo<String, Date?>()

    /// ``parse(_:)`` for a `Date` field: the answers of one second carry the same text, so the
    /// last text read on this thread and its date are kept, and the same text again is compared,
    /// not parsed.
    public static func parseRecent(_ text: String) -> Date? { recent.value(for: text, make: parse) }

    /// Parses `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate), `Sunday, 06-Nov-94 08:49:37 GMT`
    /// (obsolete RFC 850) or `Sun Nov  6 08:49:37 1994` (asctime); `nil` for anything else.
    /// Names are case-sensitive, as the grammar says. A two-digit year below 70 is 20xx.
    /// Reads the text's own bytes, nothing copied: this runs for the `Date` of every answer stored.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            if let comma = bytes.firstIndex(of: UInt8(ascii: ",")) {
                let rest = UnsafeBufferPointer(rebasing: bytes[(comma + 1)...])
                if comma == 3, shortDayCodes.contains(code(bytes[..<comma])), rest.count == 25 {
                    // " 06 Nov 1994 08:49:37 GMT"
                    guard pattern(rest, " dd AAA yyyy hh:mm:ss GMT") else { return nil }
                    return date(rest, day: 1, month: 4, year: 8, yearDigits: 4, time: 13)
                }
                if longDays.contains(String(decoding: bytes[..<comma], as: UTF8.self)), rest.count == 23 {
                    // " 06-Nov-94 08:49:37 GMT"
                    guard pattern(rest, " dd-AAA-yy hh:mm:ss GMT") else { return nil }
                    return date(rest, day: 1, month: 4, year: 8, yearDigits: 2, time: 11)
                }
                return nil
            }
            // "Sun Nov  6 08:49:37 1994"
            guard bytes.count == 24, shortDayCodes.contains(code(bytes[0..<3])),
                pattern(bytes, "xxx AAA Dd hh:mm:ss yyyy")
            else { return nil }
            return date(bytes, day: 8, month: 4, year: 20, yearDigits: 4, time: 11)
        }
    }

    /// Three bytes as one number.
    private static func code<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int {
        bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    /// `true` when `bytes` fit `shape`: `d y h m s` digits, `D` a digit or a space, `A` a letter,
    /// `x` anything, other characters themselves.
    private static func pattern(_ bytes: UnsafeBufferPointer<UInt8>, _ shape: StaticString) -> Bool {
        guard bytes.count == shape.utf8CodeUnitCount else { return false }
        let shape = UnsafeBufferPointer(start: shape.utf8Start, count: shape.utf8CodeUnitCount)
        for (byte, want) in zip(bytes, shape) {
            let isDigit = (0x30...0x39).contains(byte)
            let fits: Bool
            switch want {
            case UInt8(ascii: "d"), UInt8(ascii: "y"), UInt8(ascii: "h"), UInt8(ascii: "m"), UInt8(ascii: "s"):
                fits = isDigit
            case UInt8(ascii: "D"): fits = isDigit || byte == UInt8(ascii: " ")
            case UInt8(ascii: "A"): fits = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            case UInt8(ascii: "x"): fits = true
            default: fits = byte == want
            }
            guard fits else { return false }
        }
        return true
    }

    /// The date whose fields start at the given offsets of `bytes` (already shaped by ``pattern``).
    private static func date(
        _ bytes: UnsafeBufferPointer<UInt8>, day: Int, month: Int, year: Int, yearDigits: Int, time: Int
    ) -> Date? {
        func number(_ start: Int, _ count: Int) -> Int {
            bytes[start..<start + count].reduce(0) { $1 == UInt8(ascii: " ") ? $0 : $0 * 10 + Int($1 - 0x30) }
        }
        guard let monthIndex = monthCodes.firstIndex(of: code(bytes[month..<month + 3])) else { return nil }
        let dayNumber = number(day, 2)
        var yearNumber = number(year, yearDigits)
        if yearDigits == 2 { yearNumber += yearNumber < 70 ? 2000 : 1900 }
        let (hour, minute, second) = (number(time, 2), number(time + 3, 2), number(time + 6, 2))
        guard (1...31).contains(dayNumber), hour <= 23, minute <= 59, second <= 60 else { return nil }
        let days = daysSinceEpoch(year: yearNumber, month: monthIndex + 1, day: dayNumber)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
