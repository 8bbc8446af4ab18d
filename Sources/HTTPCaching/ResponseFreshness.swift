import Foundation

/// What RFC 9111 says about one response for a shared cache: may it be stored, for how long is
/// it fresh, how old is it already, and which stale windows apply.
public struct ResponseFreshness: Sendable, Hashable {
    /// The freshness lifetime the response gives (§4.2.1), or `nil` when it gives none (the
    /// cache's default applies). Zero means "store, but revalidate before every use".
    public var lifetime: TimeInterval?
    /// The corrected initial age (§4.2.3).
    public var age: TimeInterval
    /// `false` when the response must not be stored (§3).
    public var isStorable: Bool
    /// `true` when a stale response must never be served without revalidation (§4.2.4, §5.2.2.2).
    public var mustRevalidate: Bool
    /// The `stale-while-revalidate` window (RFC 5861 §3), bounded by the cache's maximum.
    public var staleWhileRevalidate: TimeInterval?
    /// The `stale-if-error` window (RFC 5861 §4), bounded by the cache's maximum.
    public var staleIfError: TimeInterval?

    /// Creates freshness information.
    public init(
        lifetime: TimeInterval? = nil, age: TimeInterval = 0, isStorable: Bool = true, mustRevalidate: Bool = false,
        staleWhileRevalidate: TimeInterval? = nil, staleIfError: TimeInterval? = nil
    ) {
        self.lifetime = lifetime
        self.age = age
        self.isStorable = isStorable
        self.mustRevalidate = mustRevalidate
        self.staleWhileRevalidate = staleWhileRevalidate
        self.staleIfError = staleIfError
    }
}
