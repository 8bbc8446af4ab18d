import Foundation
import RDS

/// A repository's background refresh (`repositories.NAME.refresh`): which keys are kept fresh
/// without traffic, when, and how many refreshes of its service may run at once.
public struct RefreshSettings: Sendable, Equatable, Decodable {
    /// `subscribed`, `recent`, `warm-up`, combinable.
    public var keys: [String]
    /// Refresh after this fraction of the lifetime (0 < f < 1); 0.8 when neither this nor `interval` is set.
    public var beforeExpiry: Double?
    /// Up to this fraction of the lifetime (0 ≤ j ≤ 0.5) is taken off at random.
    public var jitter: Double
    /// Refresh at least this often, in seconds.
    public var interval: TimeInterval?
    /// How long a read key stays followed (`recent`), in seconds.
    public var recentWindow: TimeInterval
    /// The most refreshes of the repository's service running at once.
    public var concurrency: Int
    /// The most keys followed at once.
    public var maxKeys: Int

    /// The key kinds a configuration may name.
    static let kinds: [String: RefreshPolicy.Keys] = ["subscribed": .subscribed, "recent": .recent, "warm-up": .warmUp]

    /// Creates settings.
    public init(
        keys: [String], beforeExpiry: Double? = nil, jitter: Double = 0.1, interval: TimeInterval? = nil,
        recentWindow: TimeInterval = 300, concurrency: Int = 4, maxKeys: Int = 100_000
    ) {
        self.keys = keys
        self.beforeExpiry = beforeExpiry
        self.jitter = jitter
        self.interval = interval
        self.recentWindow = recentWindow
        self.concurrency = concurrency
        self.maxKeys = maxKeys
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case keys, beforeExpiry, jitter, interval, recentWindow, concurrency, maxKeys
    }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = RefreshSettings(keys: [])
        keys = try container.decode([String].self, forKey: .keys)
        beforeExpiry = try container.decodeIfPresent(Double.self, forKey: .beforeExpiry)
        jitter = try container.decodeIfPresent(Double.self, forKey: .jitter) ?? defaults.jitter
        interval = try container.decodeIfPresent(TimeInterval.self, forKey: .interval)
        recentWindow = try container.decodeIfPresent(TimeInterval.self, forKey: .recentWindow) ?? defaults.recentWindow
        concurrency = try container.decodeIntegerIfPresent(forKey: .concurrency) ?? defaults.concurrency
        maxKeys = try container.decodeIntegerIfPresent(forKey: .maxKeys) ?? defaults.maxKeys
    }

    /// The RDS policy these settings describe.
    public var policy: RefreshPolicy {
        let kinds = keys.compactMap { Self.kinds[$0] }.reduce(into: RefreshPolicy.Keys()) { $0.formUnion($1) }
        return RefreshPolicy(
            keys: kinds, beforeExpiry: beforeExpiry ?? (interval == nil ? 0.8 : nil), jitter: jitter,
            interval: interval, recentWindow: recentWindow, maxKeys: maxKeys)
    }
}
