import Glibc

/// The `Date` header value, formatted at most once per second by its owner (a connection, on
/// its loop's thread): no lock shared with other loops on the response path.
struct HTTPDateCache {
    private var second = -1
    private var value: [UInt8] = []

    /// The current second's `Date` value.
    mutating func current() -> [UInt8] {
        let now = time(nil)
        if now != second {
            second = now
            value = HTTPDate.format(secondsSince1970: now)
        }
        return value
    }
}
