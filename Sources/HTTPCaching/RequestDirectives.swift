import Foundation
import HTTP1

/// The client's own cache directives (RFC 9111 §5.2.1), and whether they let a stored response
/// answer the request.
///
/// `Pragma: no-cache` counts as `no-cache` only when the request has no `Cache-Control` (§5.4).
/// `max-stale` without an argument accepts any staleness.
public struct RequestDirectives: Sendable, Hashable {
    /// What the directives say about one stored response.
    public enum Verdict: Sendable, Hashable {
        /// Serve the stored response as it is (fresh, or stale within `max-stale`).
        case useStored
        /// The directives require validation with the origin first (`no-cache`, `max-age`, `min-fresh`).
        case revalidate
        /// The directives neither accept nor refuse it: the cache's own policy decides.
        case cachePolicy
    }

    /// `max-age`: the oldest response the client accepts.
    public let maxAge: Int?
    /// `max-stale`: how stale a response may be; `Int.max` when no limit was given.
    public let maxStale: Int?
    /// `min-fresh`: how much freshness must remain.
    public let minFresh: Int?
    /// `no-cache` (or `Pragma: no-cache` without `Cache-Control`).
    public let noCache: Bool
    /// `no-store`: neither this request nor its response may be stored.
    public let noStore: Bool
    /// `only-if-cached`: answer from the cache or with 504.
    public let onlyIfCached: Bool

    /// Reads the directives of a request's header fields.
    public init(_ headers: HTTPHeaders) {
        guard headers.contains("Cache-Control") else {
            (maxAge, maxStale, minFresh, noStore, onlyIfCached) = (nil, nil, nil, false, false)
            // Most requests carry neither field: no list of values made and split for them.
            guard headers.contains("Pragma") else {
                noCache = false
                return
            }
            let pragma = headers.values(for: "Pragma").flatMap { $0.split(separator: ",") }
            noCache = pragma.contains { $0.trimmingWhitespace().lowercased() == "no-cache" }
            return
        }
        let control = CacheControl(headers: headers)
        maxAge = control.deltaSeconds("max-age")
        maxStale =
            control.contains("max-stale")
            ? (control.value(of: "max-stale") == nil ? .max : control.deltaSeconds("max-stale")) : nil
        minFresh = control.deltaSeconds("min-fresh")
        noCache = control.noCache
        noStore = control.noStore
        onlyIfCached = control.contains("only-if-cached")
    }

    /// `true` when the request carries no directive that changes how the cache answers.
    public var isEmpty: Bool {
        maxAge == nil && maxStale == nil && minFresh == nil && !noCache && !noStore && !onlyIfCached
    }

    /// The verdict on a stored response of `age` seconds with `timeToLive` seconds of freshness
    /// left (negative once stale); a `mustRevalidate` response is never served stale (§4.2.4).
    public func verdict(age: TimeInterval, timeToLive: TimeInterval, mustRevalidate: Bool) -> Verdict {
        if noCache { return .revalidate }
        if let maxAge, age > TimeInterval(maxAge) { return .revalidate }
        if let minFresh, timeToLive < TimeInterval(minFresh) { return .revalidate }
        if timeToLive > 0 { return .useStored }
        if !mustRevalidate, let maxStale, -timeToLive <= TimeInterval(maxStale) { return .useStored }
        return .cachePolicy
    }
}
