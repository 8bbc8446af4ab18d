import HTTP1

/// A repository's cache-key rules: which query parameters and request headers take part.
///
/// What takes part in the key is exactly what is forwarded upstream; everything else is dropped.
public struct CacheKeyRules: Sendable, Hashable {
    /// The query parameters kept.
    public var queryParameters: QueryParameterRule
    /// The request header fields kept (and forwarded).
    public var headers: HeaderAllowList

    /// Creates rules; by default every query parameter and no request header take part.
    public init(queryParameters: QueryParameterRule = .all, headers: HeaderAllowList = HeaderAllowList()) {
        self.queryParameters = queryParameters
        self.headers = headers
    }

    /// The key for a client request mapped to `path` upstream.
    /// - Parameters:
    ///   - repository: The repository's name.
    ///   - path: The upstream path the route template produced.
    ///   - query: The client's raw query string (after `?`), if any.
    ///   - requestHeaders: The client's request headers.
    public func key(repository: String, path: String, query: Substring?, requestHeaders: HTTPHeaders) -> ResourceKey {
        key(repository: repository, hasher: nil, path: path, query: query, requestHeaders: requestHeaders)
    }

    /// ``key(repository:path:query:requestHeaders:)`` with a hasher that has combined `repository`
    /// (``ResourceKey/hasher(combining:)``, made once per route).
    func key(
        repository: String, hasher: Hasher?, path: String, query: Substring?, requestHeaders: HTTPHeaders
    ) -> ResourceKey {
        let rule = queryParameters
        return ResourceKey(
            repository: repository, path: path,
            normalizedQuery: ResourceKey.normalizedQuery(query ?? "", admitting: rule.admits),
            lowercasedHeaders: headers.select(from: requestHeaders), passedHeaders: headers.passed(from: requestHeaders),
            repositoryHasher: hasher)
    }
}
