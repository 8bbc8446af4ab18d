import Foundation

/// HTTP dates (RFC 9110 §5.6.7): parses the three formats a recipient must accept and writes
/// the preferred one (IMF-fixdate). Pure arithmetic, no `DateFormatter`, no locale.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let dayNames = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]

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

    /// Formats `date` as an IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func format(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let seconds = total - days * 86_400
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let weekday = dayNames[((days % 7) + 7) % 7]
        return "\(weekday), \(twoDigits(day)) \(monthNames[month - 1]) \(year) "
            + "\(twoDigits(seconds / 3_600)):\(twoDigits(seconds / 60 % 60)):\(twoDigits(seconds % 60)) GMT"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of ``daysSinceEpoch(year:month:day:)`` (`civil_from_days`).
    private static func civilDate(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
