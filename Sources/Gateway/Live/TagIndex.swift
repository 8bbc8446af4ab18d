import RDS
import Synchronization

/// The tags of one repository's stored resources, for purges by tag: which keys carry a tag.
///
/// Kept up to date by ``TaggingDatastore`` as entries are stored, read and removed, and rebuilt
/// from the disk level at start-up (the tags travel inside the stored answers). At most
/// ``maxEntries`` (tag, key) pairs are held; past that, keys are forgotten (a forgotten key is not
/// purged by tag until it is stored or read again).
final class TagIndex: Sendable {
    private struct Index {
        var keysByTag: [String: Set<ResourceKey>] = [:]
        var tagsByKey: [ResourceKey: [String]] = [:]
        var pairs = 0
        var forgotten = 0
    }

    private let index = Mutex(Index())
    /// The most (tag, key) pairs held.
    let maxEntries: Int

    /// Creates an empty index holding at most `maxEntries` pairs.
    init(maxEntries: Int) { self.maxEntries = max(1, maxEntries) }

    /// The number of (tag, key) pairs held.
    var count: Int { index.withLock { $0.pairs } }

    /// How many keys were forgotten to respect ``maxEntries``.
    var forgottenCount: Int { index.withLock { $0.forgotten } }

    /// The keys carrying `tag`.
    func keys(taggedWith tag: String) -> Set<ResourceKey> { index.withLock { $0.keysByTag[tag] ?? [] } }

    /// The tags of `key`, or `nil` when it is not indexed.
    func tags(of key: ResourceKey) -> [String]? { index.withLock { $0.tagsByKey[key] } }

    /// Records that `key` carries exactly `tags` (none: forgets it).
    func set(_ tags: [String], for key: ResourceKey) {
        index.withLock { index in
            // Unchanged, or still none (most keys carry no tags): nothing to do, one lookup.
            if index.tagsByKey[key] ?? [] == tags { return }
            Self.remove(key, from: &index)
            guard !tags.isEmpty else { return }
            while index.pairs + tags.count > maxEntries, let victim = index.tagsByKey.keys.first {
                Self.remove(victim, from: &index)
                index.forgotten += 1
            }
            guard tags.count <= maxEntries else { return }
            index.tagsByKey[key] = tags
            for tag in tags { index.keysByTag[tag, default: []].insert(key) }
            index.pairs += tags.count
        }
    }

    /// Forgets `key`.
    func remove(_ key: ResourceKey) { index.withLock { Self.remove(key, from: &$0) } }

    /// Forgets everything.
    func removeAll() { index.withLock { $0 = Index(forgotten: $0.forgotten) } }

    private static func remove(_ key: ResourceKey, from index: inout Index) {
        guard let tags = index.tagsByKey.removeValue(forKey: key) else { return }
        index.pairs -= tags.count
        for tag in tags {
            index.keysByTag[tag]?.remove(key)
            if index.keysByTag[tag]?.isEmpty == true { index.keysByTag[tag] = nil }
        }
    }
}
