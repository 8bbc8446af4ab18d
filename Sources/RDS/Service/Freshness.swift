import Foundation

/// What the upstream said about how long a value may be cached (parsed by the service).
public struct Freshness: Sendable, Hashable {
    /// The freshness lifetime the upstream gave, or `nil` when it gave none (the repository's
    /// `defaultTTL` applies). Zero means "store, but revalidate before every use" (`no-cache`).
    public var lifetime: TimeInterval?
    /// The age the value already had (`Age`).
    public var age: TimeInterval
    /// `false` when the value must not be stored at all (`no-store`, `private`, `Vary: *`, …).
    public var isStorable: Bool
    /// `true` when a stale value must never be served without revalidation.
    public var mustRevalidate: Bool
    /// A `stale-while-revalidate` window the upstream allows, if any.
    public var staleWhileRevalidate: TimeInterval?
    /// A `stale-if-error` window the upstream allows, if any.
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
