import Foundation

/// A stored value with its timing and validators.
///
/// An entry past `expiresAt` is *stale*, not gone: it stays readable until evicted, so a
/// repository can serve it while revalidating or when the service fails.
public struct CacheEntry<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// When the value was stored (or last renewed by a revalidation).
    public var storedAt: Date
    /// When the value stops being fresh.
    public var expiresAt: Date
    /// ETag and Last-Modified for conditional revalidation.
    public var validators: Validators
    /// The age the value already had when it was stored (the upstream's `Age`).
    public var initialAge: TimeInterval
    /// `true` when a stale value must never be served without revalidation (`must-revalidate`).
    public var mustRevalidate: Bool
    /// The entry's own stale-while-revalidate window (the service's, e.g. RFC 5861), or `nil`
    /// for the repository's.
    public var staleWhileRevalidate: TimeInterval?
    /// The entry's own stale-if-error window (the service's, e.g. RFC 5861), or `nil` for the repository's.
    public var staleIfError: TimeInterval?

    /// Creates an entry.
    public init(
        value: Value, storedAt: Date, expiresAt: Date, validators: Validators = Validators(),
        initialAge: TimeInterval = 0, mustRevalidate: Bool = false, staleWhileRevalidate: TimeInterval? = nil,
        staleIfError: TimeInterval? = nil
    ) {
        self.value = value
        self.storedAt = storedAt
        self.expiresAt = expiresAt
        self.validators = validators
        self.initialAge = initialAge
        self.mustRevalidate = mustRevalidate
        self.staleWhileRevalidate = staleWhileRevalidate
        self.staleIfError = staleIfError
    }

    /// `true` while `now` is before ``expiresAt``.
    public func isFresh(at now: Date) -> Bool { now < expiresAt }

    /// The current age: ``initialAge`` plus the time since ``storedAt`` (RFC 9111 §4.2.3).
    public func age(at now: Date) -> TimeInterval { initialAge + max(0, now.timeIntervalSince(storedAt)) }

    /// Seconds of freshness left (negative once stale).
    public func timeToLive(at now: Date) -> TimeInterval { expiresAt.timeIntervalSince(now) }
}

extension CacheEntry: Equatable where Value: Equatable {}
