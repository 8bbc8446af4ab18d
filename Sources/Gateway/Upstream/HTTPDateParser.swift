import Foundation

/// Reads HTTP dates (RFC 9110 §5.6.7) in the three formats a recipient must accept. Pure
/// arithmetic, no `DateFormatter`, no locale. (Writing them is `HTTP1.HTTPDate`'s job.)
public enum HTTPDateParser {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Parses `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT` or
    /// `Sun Nov  6 08:49:37 1994`; `nil` for anything else (callers treat that as a past date).
    public static func parse(_ text: String) -> Date? {
        var tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" || $0 == "\t" })
        guard tokens.count >= 5, tokens[0].allSatisfy(\.isLetter) else { return nil }
        tokens.removeFirst()
        let day: Substring, month: Substring, year: Substring, time: Substring
        if tokens[0].allSatisfy(\.isNumber) {
            (day, month, year, time) = (tokens[0], tokens[1], tokens[2], tokens[3])
            guard tokens.count == 4 || (tokens.count == 5 && tokens[4] == "GMT") else { return nil }
        } else {
            guard tokens.count == 4 else { return nil }
            (month, day, time, year) = (tokens[0], tokens[1], tokens[2], tokens[3])
        }
        guard let monthIndex = months.firstIndex(of: month.lowercased()),
            let dayNumber = Int(day), (1...31).contains(dayNumber), day.count <= 2,
            var yearNumber = Int(year), year.count == 2 || year.count == 4
        else { return nil }
        if year.count == 2 { yearNumber += yearNumber < 70 ? 2000 : 1900 }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
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
