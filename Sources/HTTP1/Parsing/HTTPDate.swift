import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The IMF-fixdate of the `Date` header (RFC 9110 §5.6.7), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`,
/// formatted at most once per second and shared by every thread.
public enum HTTPDate {
    private static let cache = Mutex<(second: Int, text: [UInt8])>((-1, []))

    /// The current date as header value bytes.
    public static func current() -> [UInt8] {
        let second = time(nil)
        return cache.withLock { cached in
            if cached.second != second { cached = (second, format(secondsSince1970: second)) }
            return cached.text
        }
    }

    /// The IMF-fixdate for seconds since 1970-01-01T00:00:00Z.
    public static func format(secondsSince1970 seconds: Int) -> [UInt8] {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let text =
            "\(days[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
        return Array(text.utf8)
    }
}
