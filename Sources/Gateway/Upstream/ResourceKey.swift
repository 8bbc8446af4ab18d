import Foundation

/// Identifies one cached resource of a repository: exactly what the upstream is asked for.
///
/// The key holds the upstream path, the normalized query (only the parameters the repository's
/// ``CacheKeyRules`` admit, sorted by name) and every request header that is forwarded (names
/// lower-cased). ``HTTPService`` sends nothing else that varies per request, except the fields a
/// `forwardHeaders: "*"` repository passes unkeyed (``passedHeaders``), so a `Vary` on a keyed
/// header keeps variants apart by construction.
public struct ResourceKey: Hashable, Sendable, CustomStringConvertible {
    /// The fields, behind one reference: a key is copied into every table, task and answer a
    /// request passes through, and one retain per copy costs less than one per field.
    private final class Storage: Sendable {
        let repository: String
        let path: String
        let query: String
        let headers: [String: String]
        let passedHeaders: [String: String]
        /// The hash of the identity, computed once: a key is hashed by every table it passes
        /// through on a request (in-flight fetches, states, marks), and hashing a dictionary is not cheap.
        let identityHash: Int

        init(
            repository: String, path: String, query: String, headers: [String: String], passedHeaders: [String: String],
            repositoryHasher: Hasher?
        ) {
            self.repository = repository
            self.path = path
            self.query = query
            self.headers = headers
            self.passedHeaders = passedHeaders
            var hasher = repositoryHasher ?? ResourceKey.hasher(combining: repository)
            hasher.combine(path)
            // Most keys have no query and no keyed fields: hashing even an empty string costs ~100
            // instructions, an empty dictionary a call and a hasher of its own. Equal keys have
            // equal queries and fields, so they still hash alike.
            if !query.isEmpty { hasher.combine(query) }
            if !headers.isEmpty { hasher.combine(headers) }
            identityHash = hasher.finalize()
        }
    }

    /// A hasher that has combined `repository`: made once per route and handed to
    /// ``init(repository:path:normalizedQuery:lowercasedHeaders:passedHeaders:repositoryHasher:)``,
    /// so that a key's hash does not hash its repository's name again (~130 instructions a key).
    static func hasher(combining repository: String) -> Hasher {
        var hasher = Hasher()
        hasher.combine(repository)
        return hasher
    }

    private let storage: Storage

    /// The repository that owns the resource.
    public var repository: String { storage.repository }
    /// The upstream path, starting with `/`, percent-encoded as sent.
    public var path: String { storage.path }
    /// The normalized query without `?` (`a=1&b=2`), empty when there is none.
    public var query: String { storage.query }
    /// The forwarded request header fields: lower-cased names, repeated fields joined with `, `.
    public var headers: [String: String] { storage.headers }
    /// Request fields passed upstream without keying the cache (`forwardHeaders: "*"`); not part
    /// of the key's identity (equality, hashing, encoding) nor of its description.
    public var passedHeaders: [String: String] { storage.passedHeaders }

    /// Creates a key, normalizing as it goes: a missing leading `/` is added, the query's
    /// parameters are sorted by name (a stable sort, so repeated names keep their order) and
    /// empty parameters dropped, and header names are lower-cased.
    public init(
        repository: String, path: String, query: Substring? = nil, headers: [String: String] = [:],
        passedHeaders: [String: String] = [:]
    ) {
        var lowered: [String: String] = [:]
        for (name, value) in headers {
            let name = name.lowercased()
            lowered[name] = lowered[name].map { $0 + ", " + value } ?? value
        }
        self.init(
            repository: repository, path: path, normalizedQuery: Self.normalizedQuery(query ?? "", admitting: { _ in true }),
            lowercasedHeaders: lowered, passedHeaders: passedHeaders)
    }

    /// Creates a key from a query already normalized (``normalizedQuery(_:admitting:)``) and
    /// header names already lower-cased, as ``CacheKeyRules`` makes them: nothing is split,
    /// joined or walked again. A missing leading `/` is still added to `path`.
    /// `repositoryHasher`, when given, has combined `repository` (``hasher(combining:)``).
    init(
        repository: String, path: String, normalizedQuery: String, lowercasedHeaders: [String: String],
        passedHeaders: [String: String], repositoryHasher: Hasher? = nil
    ) {
        storage = Storage(
            repository: repository, path: path.utf8.first == UInt8(ascii: "/") ? path : "/" + path,
            query: normalizedQuery, headers: lowercasedHeaders, passedHeaders: passedHeaders,
            repositoryHasher: repositoryHasher)
    }

    /// Keys are equal when repository, path, query and keyed headers are; ``passedHeaders`` do not count.
    public static func == (lhs: ResourceKey, rhs: ResourceKey) -> Bool {
        let (lhs, rhs) = (lhs.storage, rhs.storage)
        return lhs === rhs
            || (lhs.identityHash == rhs.identityHash && lhs.repository == rhs.repository && lhs.path == rhs.path
                && lhs.query == rhs.query && lhs.headers == rhs.headers)
    }

    /// Hashes what ``==`` compares (its hash, computed once).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.identityHash)
    }

    /// The hash a dictionary or set seeded with `seed` files the key under, for each of the dozen
    /// look-ups a request makes: the identity's hash is already a `Hasher`'s, under the process's
    /// random seed, so the table's seed is only mixed in (splitmix64's finalizer), not hashed
    /// again with a `Hasher` made, fed and finished (~100 instructions a look-up).
    public func _rawHashValue(seed: Int) -> Int {
        var mixed = UInt64(truncatingIfNeeded: storage.identityHash ^ seed)
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 31))
    }

    /// The request target sent upstream (before any base path or API key): path, then `?query`.
    public var target: String { query.isEmpty ? path : path + "?" + query }

    /// The headers sorted by name, as they are sent and encoded.
    public var sortedHeaders: [(name: String, value: String)] {
        headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    /// `repository path?names`, plus the header names: the names of the query parameters and
    /// headers only, never their values, which may be tokens or credentials. Logs and error
    /// details show keys this way.
    public var description: String {
        let parameters = query.split(separator: "&").map { parameter in
            parameter.firstIndex(of: "=").map { parameter[..<$0] } ?? parameter
        }
        let shown = parameters.isEmpty ? path : path + "?" + parameters.joined(separator: "&")
        let names = headers.keys.sorted().joined(separator: ",")
        return names.isEmpty ? "\(repository) \(shown)" : "\(repository) \(shown) [\(names)]"
    }

    /// Splits `query` at `&`, keeps the non-empty parameters whose percent-decoded name `admits`
    /// accepts, and joins them again sorted by name.
    static func normalizedQuery(_ query: Substring, admitting admits: (String) -> Bool) -> String {
        // Most requests carry none: nothing to split, sort and join.
        guard !query.isEmpty else { return "" }
        var parameters: [(name: String, raw: Substring)] = []
        for raw in query.split(separator: "&", omittingEmptySubsequences: true) {
            let rawName = raw.firstIndex(of: "=").map { raw[..<$0] } ?? raw
            let plain = rawName.replacingOccurrences(of: "+", with: " ")
            let name = plain.removingPercentEncoding ?? plain
            guard !name.isEmpty, admits(name) else { continue }
            parameters.append((name: name, raw: raw))
        }
        return parameters.enumerated()
            .sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }
            .map { String($0.element.raw) }
            .joined(separator: "&")
    }
}

