import Foundation
import HTTP1
import RDS

/// RFC 9111 rules for a *shared* cache: may a response be stored, and for how long is it fresh.
///
/// - Not stored: `no-store`, `private` (with or without field names), a `Set-Cookie` field,
///   `Vary: *`, a 1xx, 206 or 304 (§3: no interim or partial answers), a request with
///   `Authorization` unless the response says `public`, `s-maxage` or `must-revalidate` (§3.5),
///   and a status that is neither cacheable by default (RFC 9110 §15.1: 200 203 204 300 301 308
///   404 405 410 414 501) nor given explicit freshness (`public`, `max-age`, `s-maxage`, `Expires`).
/// - Lifetime (§4.2.1): `s-maxage`, else `max-age`, else `Expires` − `Date` (the time of receipt
///   when `Date` is missing; an invalid `Expires` is in the past); `nil` when none is given, so
///   the repository's `defaultTTL` applies. `no-cache` makes it `0`: stored, revalidated before
///   every use.
/// - Age (§4.2.3): the larger of `Date`-based apparent age (in whole seconds, as `Date` has no
///   finer resolution) and `Age` plus the response delay.
/// - Must revalidate: `must-revalidate`, `proxy-revalidate`, `s-maxage` (§5.2.2.10) or `no-cache`;
///   then no stale window applies. Otherwise `stale-while-revalidate` and `stale-if-error`
///   (RFC 5861) are passed on.
public struct FreshnessPolicy: Sendable {
    /// The statuses a shared cache may store without explicit freshness (RFC 9110 §15.1).
    public static let cacheableByDefault: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Creates the policy.
    public init() {}

    /// The freshness of a response.
    /// - Parameters:
    ///   - status: The response status (for a 304, the status of the stored response it renews, usually 200).
    ///   - headers: The response header fields.
    ///   - requestHeaders: The header fields of the request that produced it.
    ///   - requestTime: When the request was sent.
    ///   - responseTime: When the response arrived.
    public func freshness(
        status: Int, headers: HTTPHeaders, requestHeaders: HTTPHeaders = [:], requestTime: Date, responseTime: Date
    ) -> Freshness {
        let control = CacheControl(headers: headers)
        let date = headers["Date"].flatMap(HTTPDateParser.parse)
        let lifetime = lifetime(control: control, headers: headers, date: date ?? responseTime)
        let mustRevalidate = control.mustRevalidate || control.proxyRevalidate || control.sharedMaxAge != nil
            || control.noCache
        return Freshness(
            lifetime: lifetime,
            age: age(headers: headers, date: date, requestTime: requestTime, responseTime: responseTime),
            isStorable: isStorable(status: status, control: control, headers: headers, requestHeaders: requestHeaders),
            mustRevalidate: mustRevalidate,
            staleWhileRevalidate: mustRevalidate ? nil : control.staleWhileRevalidate.map(TimeInterval.init),
            staleIfError: mustRevalidate ? nil : control.staleIfError.map(TimeInterval.init))
    }

    /// RFC 9111 §3 for a shared cache, plus `Set-Cookie` and `Vary: *`.
    private func isStorable(status: Int, control: CacheControl, headers: HTTPHeaders, requestHeaders: HTTPHeaders)
        -> Bool
    {
        if control.noStore || control.isPrivate || headers.contains("Set-Cookie") { return false }
        if status < 200 || status == 206 || status == 304 { return false }
        let varies = headers.values(for: "Vary").flatMap { $0.split(separator: ",") }
        if varies.contains(where: { $0.trimmingWhitespace() == "*" }) { return false }
        if requestHeaders.contains("Authorization"),
            !(control.isPublic || control.sharedMaxAge != nil || control.mustRevalidate)
        {
            return false
        }
        let explicit = control.isPublic || control.maxAge != nil || control.sharedMaxAge != nil
            || headers.contains("Expires")
        return explicit || Self.cacheableByDefault.contains(status)
    }

    /// §4.2.1: `no-cache` → 0, then `s-maxage`, `max-age`, `Expires` − `Date`.
    private func lifetime(control: CacheControl, headers: HTTPHeaders, date: Date) -> TimeInterval? {
        if control.noCache { return 0 }
        if let seconds = control.sharedMaxAge ?? control.maxAge { return TimeInterval(seconds) }
        guard let expires = headers["Expires"] else { return nil }
        guard let expiry = HTTPDateParser.parse(expires) else { return 0 }
        return max(0, expiry.timeIntervalSince(date))
    }

    /// §4.2.3: `max(apparent_age, age_value + response_delay)`.
    private func age(headers: HTTPHeaders, date: Date?, requestTime: Date, responseTime: Date) -> TimeInterval {
        let ageValue = headers["Age"].flatMap { value -> TimeInterval? in
            let digits = value.trimmingCharacters(in: .whitespaces)
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return TimeInterval(min(Int(digits) ?? .max, CacheControl.maximumDeltaSeconds))
        }
        // `Date` has whole seconds: compare at that resolution, so a fresh answer does not look up to 1 s old.
        let receivedSecond = responseTime.timeIntervalSince1970.rounded(.down)
        let apparent = date.map { max(0, receivedSecond - $0.timeIntervalSince1970) } ?? 0
        let delay = max(0, responseTime.timeIntervalSince(requestTime))
        return max(apparent, (ageValue ?? 0) + delay)
    }
}
