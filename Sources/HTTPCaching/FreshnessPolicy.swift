import Foundation
import HTTP1

/// RFC 9111 rules for a *shared* cache: may a response be stored, and for how long is it fresh.
///
/// - Targeted field (RFC 9213): when the response has ``targetedField`` (`CDN-Cache-Control` by
///   default, e.g. `Surrogate-Control`) with at least one directive, its directives replace
///   `Cache-Control` and `Expires` for this cache.
/// - Not stored: `no-store`, `private` (with or without field names), a `Set-Cookie` field,
///   `Vary: *`, a 1xx, 206 or 304 (§3: no interim or partial answers), a request with
///   `Authorization` unless the response says `public`, `s-maxage` or `must-revalidate` (§3.5),
///   and a status that is neither heuristically cacheable (RFC 9110 §15.1: 200 203 204 300 301
///   308 404 405 410 414 501) nor given explicit freshness (`public`, `max-age`, `s-maxage`, `Expires`).
/// - Lifetime (§4.2.1): `s-maxage`, else `max-age`, else `Expires` − `Date` (the time of receipt
///   when `Date` is missing); `nil` when none is given, so the cache's default applies. `no-cache`
///   makes it `0`: stored, revalidated before every use. `Expires` must be one of the three
///   RFC 9110 §5.6.7 forms and appear once; anything else is already expired.
/// - Heuristic (§4.2.2, opt-in): with ``heuristicFraction`` set, a heuristically cacheable
///   answer without explicit freshness but with `Last-Modified` lives that fraction of
///   `Date` − `Last-Modified`.
/// - Age (§4.2.3): the larger of `Date`-based apparent age (in whole seconds, as `Date` has no
///   finer resolution) and `Age` plus the response delay. An `Age` list counts its largest
///   member; an `Age` that is not delta-seconds makes the response stale (§1.2.2, conservative).
/// - Must revalidate: `must-revalidate`, `proxy-revalidate`, `s-maxage` (§5.2.2.10) or `no-cache`;
///   then no stale window applies. Otherwise `stale-while-revalidate` and `stale-if-error`
///   (RFC 5861) are passed on, bounded by ``maxStaleWhileRevalidate`` and ``maxStaleIfError``.
public struct FreshnessPolicy: Sendable {
    /// The statuses a shared cache may store without explicit freshness (RFC 9110 §15.1).
    public static let cacheableByDefault: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The targeted cache-control field this cache obeys over `Cache-Control` (RFC 9213).
    public let targetedField: String
    /// The longest `stale-while-revalidate` window taken from a response.
    public let maxStaleWhileRevalidate: TimeInterval
    /// The longest `stale-if-error` window taken from a response.
    public let maxStaleIfError: TimeInterval
    /// The fraction of the time since `Last-Modified` taken as a heuristic lifetime; `nil` is off.
    public let heuristicFraction: Double?

    /// Creates the policy.
    public init(
        targetedField: String = "CDN-Cache-Control", maxStaleWhileRevalidate: TimeInterval = .infinity,
        maxStaleIfError: TimeInterval = .infinity, heuristicFraction: Double? = nil
    ) {
        self.targetedField = targetedField
        self.maxStaleWhileRevalidate = maxStaleWhileRevalidate
        self.maxStaleIfError = maxStaleIfError
        self.heuristicFraction = heuristicFraction
    }

    /// `true` when the lifetime of an answer with `status` and `headers` is heuristic (§4.2.2).
    public func isHeuristic(status: Int, headers: HTTPHeaders) -> Bool {
        guard heuristicFraction != nil, Self.cacheableByDefault.contains(status), headers.contains("Last-Modified")
        else { return false }
        var targeted = false
        let control = control(of: headers, targeted: &targeted)
        return !control.noCache && control.sharedMaxAge == nil && control.maxAge == nil
            && (targeted || !headers.contains("Expires"))
    }

    /// The directives that govern this cache: the targeted field's when it has any, else `Cache-Control`'s.
    public func control(of headers: HTTPHeaders) -> (control: CacheControl, targeted: Bool) {
        var targeted = false
        let control = control(of: headers, targeted: &targeted)
        return (control, targeted)
    }

    /// ``control(of:)``, telling through `targeted` whether the targeted field governs (a returned
    /// pair holding the directives would cost a generic destroy where this is read). Both fields
    /// are read in one pass over the fields in place, as ``HTTPHeaders/forEachValue(for:_:)`` reads
    /// one. The usual lone `Cache-Control` line is read by ``CacheControl/recent(_:)``: a service's
    /// answers mostly carry the same value, which is then compared, not parsed again.
    private func control(of headers: HTTPHeaders, targeted: inout Bool) -> CacheControl {
        var (special, general) = (CacheControlParser(), CacheControlParser())
        var (generalLines, firstGeneralLine) = (0, "")
        headers.fields.withUnsafeBufferPointer { fields in
            for index in fields.indices {
                if HTTPHeaders.equalsIgnoringCase(fields[index].name, targetedField) {
                    var value = fields[index].value
                    value.withUTF8 { special.parse($0) }
                } else if HTTPHeaders.equalsIgnoringCase(fields[index].name, usually: "Cache-Control") {
                    generalLines += 1
                    guard generalLines > 1 else {
                        firstGeneralLine = fields[index].value
                        continue
                    }
                    // Lines after the first: every line parsed, in order, into one list.
                    if generalLines == 2 { firstGeneralLine.withUTF8 { general.parse($0) } }
                    var value = fields[index].value
                    value.withUTF8 { general.parse($0) }
                }
            }
        }
        targeted = !special.directives.isEmpty
        if targeted { return CacheControl(directives: special.directives) }
        return generalLines == 1 ? CacheControl.recent(firstGeneralLine) : CacheControl(directives: general.directives)
    }

    /// The freshness of a response.
    /// - Parameters:
    ///   - status: The response status (for a 304, the status of the stored response it renews, usually 200).
    ///   - headers: The response header fields.
    ///   - requestHeaders: The header fields of the request that produced it.
    ///   - requestTime: When the request was sent.
    ///   - responseTime: When the response arrived.
    public func freshness(
        status: Int, headers: HTTPHeaders, requestHeaders: HTTPHeaders = [:], requestTime: Date, responseTime: Date
    ) -> ResponseFreshness {
        evaluate(
            status: status, headers: headers, requestHeaders: requestHeaders, requestTime: requestTime,
            responseTime: responseTime, evenIfUnstorable: true)!
    }

    /// The freshness of a response that a shared cache may store, or `nil` without working out its
    /// lifetime and age when it may not; the parameters are those of
    /// ``freshness(status:headers:requestHeaders:requestTime:responseTime:)``.
    public func storableFreshness(
        status: Int, headers: HTTPHeaders, requestHeaders: HTTPHeaders = [:], requestTime: Date, responseTime: Date
    ) -> ResponseFreshness? {
        evaluate(
            status: status, headers: headers, requestHeaders: requestHeaders, requestTime: requestTime,
            responseTime: responseTime, evenIfUnstorable: false)
    }

    /// The fields ``storableFreshness(status:headers:requestHeaders:requestTime:responseTime:)``
    /// reads before it refuses an answer: the targeted field, `Cache-Control`, `Set-Cookie`, `Vary`
    /// and `Expires`. An answer it refuses given only these of its fields, it refuses given all.
    public var storabilityFieldNames: [String] { [targetedField, "Cache-Control", "Set-Cookie", "Vary", "Expires"] }

    private func evaluate(
        status: Int, headers: HTTPHeaders, requestHeaders: HTTPHeaders, requestTime: Date, responseTime: Date,
        evenIfUnstorable: Bool
    ) -> ResponseFreshness? {
        var targeted = false
        let control = control(of: headers, targeted: &targeted)
        // An answer that may never be stored (`no-store`, say) is settled before anything else is read.
        let allowed = isStorable(status: status, control: control, headers: headers, requestHeaders: requestHeaders)
        guard allowed || evenIfUnstorable else { return nil }
        let expires = targeted ? [] : headers.values(for: "Expires")
        // Each directive read once (their lookups and parses are most of this function).
        let (maxAge, sharedMaxAge, noCache) = (control.maxAge, control.sharedMaxAge, control.noCache)
        let storable =
            allowed
            && (!expires.isEmpty || control.isPublic || maxAge != nil || sharedMaxAge != nil
                || Self.cacheableByDefault.contains(status))
        guard storable || evenIfUnstorable else { return nil }
        let date = headers["Date"].flatMap(HTTPDateParser.parseRecent)
        // §4.2.1: `no-cache` → 0, then `s-maxage`, `max-age`, then `Expires` − `Date`.
        let explicit = (sharedMaxAge ?? maxAge).map { TimeInterval($0) }
        var lifetime = noCache ? 0 : explicit ?? expiresLifetime(expires, date: date ?? responseTime)
        if lifetime == nil, let heuristicFraction, Self.cacheableByDefault.contains(status),
            let modified = headers["Last-Modified"].flatMap(HTTPDateParser.parse)
        {
            lifetime = (heuristicFraction * max(0, (date ?? responseTime).timeIntervalSince(modified))).rounded(.down)
        }
        let mustRevalidate = control.mustRevalidate || control.proxyRevalidate || sharedMaxAge != nil || noCache
        return ResponseFreshness(
            lifetime: lifetime,
            age: age(headers: headers, date: date, requestTime: requestTime, responseTime: responseTime),
            isStorable: storable, mustRevalidate: mustRevalidate,
            staleWhileRevalidate: mustRevalidate
                ? nil : control.staleWhileRevalidate.map { min(TimeInterval($0), maxStaleWhileRevalidate) },
            staleIfError: mustRevalidate ? nil : control.staleIfError.map { min(TimeInterval($0), maxStaleIfError) })
    }

    /// RFC 9111 §3 for a shared cache, plus `Set-Cookie` and `Vary: *` (explicit freshness apart).
    private func isStorable(status: Int, control: CacheControl, headers: HTTPHeaders, requestHeaders: HTTPHeaders)
        -> Bool
    {
        if control.noStore || control.isPrivate || headers.contains("Set-Cookie") { return false }
        if status < 200 || status == 206 || status == 304 { return false }
        // Most answers have no `Vary`: told by a lookup, without making the empty set of its names.
        if headers.contains("Vary"), VaryField(headers).isWildcard { return false }
        if requestHeaders.contains("Authorization") {
            return control.isPublic || control.sharedMaxAge != nil || control.mustRevalidate
        }
        return true
    }

    /// §4.2.1 for a response without `no-cache`, `s-maxage` and `max-age`: `Expires` − `Date`
    /// with one valid `Expires`, else 0; `nil` without `Expires`.
    private func expiresLifetime(_ expires: [String], date: Date) -> TimeInterval? {
        guard let first = expires.first else { return nil }
        guard expires.allSatisfy({ $0 == first }), let expiry = HTTPDateParser.parse(first) else { return 0 }
        return max(0, expiry.timeIntervalSince(date))
    }

    /// §4.2.3: `max(apparent_age, age_value + response_delay)`.
    private func age(headers: HTTPHeaders, date: Date?, requestTime: Date, responseTime: Date) -> TimeInterval {
        // `Date` has whole seconds: compare at that resolution, so a fresh answer does not look up to 1 s old.
        let receivedSecond = responseTime.timeIntervalSince1970.rounded(.down)
        let apparent = date.map { max(0, receivedSecond - $0.timeIntervalSince1970) } ?? 0
        let delay = max(0, responseTime.timeIntervalSince(requestTime))
        return max(apparent, Self.ageValue(headers.values(for: "Age")) + delay)
    }

    /// The `Age` field read conservatively: absent → 0; a list → its largest member; anything that
    /// is not delta-seconds → the largest delta-seconds (stale).
    static func ageValue(_ lines: [String]) -> TimeInterval {
        guard !lines.isEmpty else { return 0 }
        let members = lines.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
        var largest = 0
        for member in members {
            let digits = member.trimmingWhitespace()
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return TimeInterval(CacheControl.maximumDeltaSeconds)
            }
            largest = max(largest, min(Int(digits) ?? .max, CacheControl.maximumDeltaSeconds))
        }
        return TimeInterval(largest)
    }
}
