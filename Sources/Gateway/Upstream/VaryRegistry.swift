import HTTP1
import HTTPCaching
import Synchronization

/// The variants of each resource (RFC 9111 §4.1): the request fields it was seen to vary on under
/// `forwardHeaders: "*"`, and the keys of its variants, so that a write or a purge of the
/// resource drops them all (``variants(of:)``, §4.4).
///
/// Under `"*"` a forwarded field does not key the cache. When an answer's `Vary` names such a
/// field, that answer is not stored, the names are learned here for its resource (repository,
/// path and query), and every later request for the resource carries those fields, values
/// whitespace-normalised, in its key (``keyed(_:)``): a secondary key, so each variant is stored,
/// served and revalidated apart. A response found under a key that leaves one of its `Vary`
/// fields unkeyed is never served (``rekeyed(_:for:)``), so a request never gets a variant
/// selected by other values, even when this in-memory registry forgot the resource or restarted.
/// Keys holding request fields (`cacheKey.headers`, listed `forwardHeaders`) are variants too.
///
/// Bounded: at most ``capacity`` resources and ``variantsPerResource`` variant keys each; past
/// them an arbitrary resource is forgotten (its varied fields are learned again by one more
/// unstored answer) or no further variant key is remembered (a write then leaves those stale
/// until they expire).
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
    /// a field the request lacks stays out), remembered as one of the resource's variants when the
    /// resource is known to vary or the key holds request fields; `key` itself otherwise.
    public func keyed(_ key: ResourceKey) -> ResourceKey {
        guard !key.passedHeaders.isEmpty || !key.headers.isEmpty else { return key }
        let resource = Self.resource(of: key)
        return resources.withLock { resources in
            let known = resources[resource]
            guard known != nil || !key.headers.isEmpty else { return key }
            var entry = known ?? Resource()
            let variant = Self.variant(of: key, varyingOn: entry.names)
            guard entry.variants.count < variantsPerResource, entry.variants.insert(variant).inserted else {
                return variant
            }
            if known == nil, resources.count >= capacity { resources.remove(at: resources.startIndex) }
            resources[resource] = entry
            return variant
        }
    }

    /// The key to use instead of `key` when a `response` found or fetched under it varies on a
    /// field `key` passed unkeyed: that response was selected without the field (another
    /// request's coalesced fetch, or a variant stored before the resource was known to vary or
    /// after it was forgotten). The fields are learned. `nil` when the response may serve `key`'s request.
    public func rekeyed(_ key: ResourceKey, for response: HTTPHeaders) -> ResourceKey? {
        guard !key.passedHeaders.isEmpty else { return nil }
        let varied = VaryField(response).names.intersection(key.passedHeaders.keys)
        guard !varied.isEmpty else { return nil }
        learn(varied, for: key)
        return Self.variant(of: keyed(key), varyingOn: varied)
    }

    /// The variant keys remembered for the resource of `key` (whatever its headers).
    public func variants(of key: ResourceKey) -> [ResourceKey] {
        resources.withLock { Array($0[Self.resource(of: key)]?.variants ?? []) }
    }

    /// `key` with those of its passed fields named in `names` moved into its keyed fields.
    private static func variant(of key: ResourceKey, varyingOn names: Set<String>) -> ResourceKey {
        let varied = names.intersection(key.passedHeaders.keys)
        guard !varied.isEmpty else { return key }
        var headers = key.headers
        var passed = key.passedHeaders
        for name in varied { headers[name] = passed.removeValue(forKey: name).map(VaryField.normalized) }
        return ResourceKey(
            repository: key.repository, path: key.path, query: key.query[...], headers: headers, passedHeaders: passed)
    }

    /// The resource a key belongs to: its repository, path and query, without headers.
    private static func resource(of key: ResourceKey) -> ResourceKey {
        ResourceKey(
            repository: key.repository, path: key.path, normalizedQuery: key.query, lowercasedHeaders: [:],
            passedHeaders: [:])
    }
}
