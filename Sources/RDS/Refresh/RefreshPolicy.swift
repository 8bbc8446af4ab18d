import Foundation

/// Which keys of a repository are refreshed in the background without traffic, and when.
public struct RefreshPolicy: Sendable, Equatable {
    /// Why a key is kept fresh.
    public struct Keys: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: Int
        /// Creates a set from its bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Keys with at least one subscriber.
        public static let subscribed = Keys(rawValue: 1 << 0)
        /// Keys read within ``RefreshPolicy/recentWindow``.
        public static let recent = Keys(rawValue: 1 << 1)
        /// The repository's warm-up keys.
        public static let warmUp = Keys(rawValue: 1 << 2)
    }

    /// The kinds of keys kept fresh.
    public var keys: Keys
    /// Refresh once this fraction of a value's lifetime has passed (0 < f < 1), if set.
    public var beforeExpiry: Double?
    /// Up to this fraction of the lifetime is taken off the refresh time at random, so keys stored
    /// together do not all refresh at once.
    public var jitter: Double
    /// Refresh at least this often, in seconds (for sources whose freshness is zero), if set.
    public var interval: TimeInterval?
    /// How long after its last read a `recent` key stays followed, in seconds.
    public var recentWindow: TimeInterval
    /// The most keys followed at once; further keys are not followed.
    public var maxKeys: Int
    /// The shortest time between two refreshes of one key, in seconds.
    public var minimumDelay: TimeInterval
    /// The longest wait after failures (1 s, 2 s, 4 s … up to this), in seconds.
    public var maxBackoff: TimeInterval

    /// Creates a policy.
    public init(
        keys: Keys, beforeExpiry: Double? = 0.8, jitter: Double = 0, interval: TimeInterval? = nil,
        recentWindow: TimeInterval = 300, maxKeys: Int = 100_000, minimumDelay: TimeInterval = 1,
        maxBackoff: TimeInterval = 300
    ) {
        self.keys = keys
        self.beforeExpiry = beforeExpiry
        self.jitter = jitter
        self.interval = interval
        self.recentWindow = recentWindow
        self.maxKeys = maxKeys
        self.minimumDelay = minimumDelay
        self.maxBackoff = maxBackoff
    }

    /// When `entry` should be refreshed next, `random` (0 ≤ r < 1) choosing the jitter; `nil`
    /// when it never should (no interval and a value without lifetime). A missing entry is due now.
    /// - Parameter lastRefresh: When the key was last refreshed, for ``interval``.
    public func dueDate<Value>(
        for entry: CacheEntry<Value>?, lastRefresh: Date?, now: Date, random: Double
    ) -> Date? {
        guard let entry else { return now }
        var due: Date?
        let lifetime = entry.expiresAt.timeIntervalSince(entry.storedAt)
        if let beforeExpiry, lifetime > 0 {
            let fraction = max(0, beforeExpiry - jitter * min(max(random, 0), 1))
            due = entry.storedAt.addingTimeInterval(lifetime * fraction)
        }
        if let interval {
            let byInterval = (lastRefresh ?? entry.storedAt).addingTimeInterval(interval)
            due = due.map { min($0, byInterval) } ?? byInterval
        }
        return due
    }

    /// The wait after `failures` consecutive failures: 1 s, 2 s, 4 s … at most ``maxBackoff``.
    public func backoff(afterFailures failures: Int) -> TimeInterval {
        min(maxBackoff, pow(2, Double(max(0, min(failures, 30) - 1))))
    }
}
