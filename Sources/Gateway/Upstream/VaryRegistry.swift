import HTTP1
import Synchronization

/// Secondary cache keys for a `forwardHeaders: "*"` repository (RFC 9111 §4.1): the request
/// fields each resource was seen to vary on, and the variant keys built from them.
///
/// Under `"*"` a forwarded field does not key the cache. When an answer's `Vary` names such a
/// field, that answer is not stored, the names are learned here for its resource (repository,
/// path and query), and every later request for the resource carries those fields, values
/// whitespace-normalised, in its key (``keyed(_:)``): each variant is then stored, served and
/// revalidated apart, and a request never gets a variant selected by other values. Every variant
/// key is remembered so that a write or a purge of the resource drops them all (``variants(of:)``).
///
/// Bounded: at most ``capacity`` resources and ``variantsPerResource`` variant keys each; past
/// them an arbitrary resource is forgotten (its variants are fetched once more before they are
/// keyed again) or no further variant key is remembered.
public final class VaryRegistry: Sendable {
    /// The most resources remembered.
    public let capacity: Int
    /// The most variant keys remembered per resource.
    public let variantsPerResource: Int

    private struct Resource {
        var names: Set<String> = []
        var variants: Set<ResourceKey> = []
    }

    private let resources = Mutex<[ResourceKey: Resource]>([:])

    /// Creates an empty registry.
    public init(capacity: Int = 10_000, variantsPerResource: Int = 64) {
        self.capacity = max(1, capacity)
        self.variantsPerResource = max(1, variantsPerResource)
    }

    /// Remembers that the resource of `key` varies on `names` (lower-cased request field names).
    public func learn(_ names: Set<String>, for key: ResourceKey) {
        guard !names.isEmpty else { return }
        let resource = Self.resource(of: key)
        resources.withLock { resources in
            if resources[resource] == nil, resources.count >= capacity {
                resources.remove(at: resources.startIndex)
            }
            resources[resource, default: Resource()].names.formUnion(names)
        }
    }

    /// `key` with the passed fields its resource varies on moved into the key (a secondary key;
    /// a field the request lacks stays out), remembered as one of the resource's variants; `key`
    /// itself when its resource is not known to vary.
    public func keyed(_ key: ResourceKey) -> ResourceKey {
        guard !key.passedHeaders.isEmpty else { return key }
        let resource = Self.resource(of: key)
        return resources.withLock { resources in
            guard var entry = resources[resource] else { return key }
            let varied = entry.names.intersection(key.passedHeaders.keys)
            var variant = key
            if !varied.isEmpty {
                var headers = key.headers
                var passed = key.passedHeaders
                for name in varied { headers[name] = passed.removeValue(forKey: name).map(Self.normalized) }
                variant = ResourceKey(
                    repository: key.repository, path: key.path, query: key.query[...], headers: headers,
                    passedHeaders: passed)
            }
            if entry.variants.count < variantsPerResource, entry.variants.insert(variant).inserted {
                resources[resource] = entry
            }
            return variant
        }
    }

    /// The variant keys remembered for the resource of `key` (whatever its headers).
    public func variants(of key: ResourceKey) -> [ResourceKey] {
        resources.withLock { Array($0[Self.resource(of: key)]?.variants ?? []) }
    }

    /// The resource a key belongs to: its repository, path and query, without headers.
    private static func resource(of key: ResourceKey) -> ResourceKey {
        ResourceKey(repository: key.repository, path: key.path, query: key.query[...])
    }

    /// A field value with the whitespace around its list members trimmed (RFC 9111 §4.1 allows
    /// normalising it); case is kept, since the value is what goes upstream.
    static func normalized(_ value: String) -> String {
        value.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingWhitespace() }.joined(separator: ", ")
    }
}
