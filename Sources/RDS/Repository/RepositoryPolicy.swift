import Foundation

/// How a repository decides between its datastore and its service, and how long values stay fresh.
///
/// All durations are in seconds. The freshness lifetime of a stored value is the upstream's
/// remaining lifetime (``Freshness/lifetime`` minus ``Freshness/age``), or ``defaultTTL`` when the
/// upstream gave none, clamped into ``minTTL`` … ``maxTTL``.
public struct RepositoryPolicy: Sendable, Hashable {
    /// Which side is the source of truth for reads.
    public var mode: Mode
    /// The shortest time a stored value stays fresh, whatever the upstream says.
    public var minTTL: TimeInterval
    /// The longest time a stored value stays fresh, whatever the upstream says.
    public var maxTTL: TimeInterval
    /// The freshness lifetime used when the upstream gives none.
    public var defaultTTL: TimeInterval
    /// How long after expiry a stale value may still be served while one background fetch renews it.
    public var staleWhileRevalidate: TimeInterval
    /// How long after expiry a stale value may still be served when the service fails.
    public var staleIfError: TimeInterval
    /// The fraction of its lifetime (for example `0.8`) after which a fresh value is refreshed in
    /// the background on use; `nil` switches refresh-ahead off.
    public var refreshAhead: Double?
    /// How long one service fetch may take before waiters get ``RepositoryErrorKind/deadlineExceeded``.
    public var fetchDeadline: TimeInterval

    /// Creates a policy; the defaults describe a cache-first repository with a one-minute default TTL.
    public init(
        mode: Mode = .cacheFirst, minTTL: TimeInterval = 0, maxTTL: TimeInterval = 31_536_000,
        defaultTTL: TimeInterval = 60, staleWhileRevalidate: TimeInterval = 0, staleIfError: TimeInterval = 0,
        refreshAhead: Double? = nil, fetchDeadline: TimeInterval = 30
    ) {
        self.mode = mode
        self.minTTL = minTTL
        self.maxTTL = maxTTL
        self.defaultTTL = defaultTTL
        self.staleWhileRevalidate = staleWhileRevalidate
        self.staleIfError = staleIfError
        self.refreshAhead = refreshAhead
        self.fetchDeadline = fetchDeadline
    }
}
