extension RepositorySettings {
    /// The headers that are forwarded and key the cache: `forwardHeaders` and `cacheKey.headers`
    /// together; `Cookie` and `Authorization` pass when listed.
    var forwardedHeaderList: HeaderAllowList {
        HeaderAllowList(forwardHeaders + cacheKey.headers, allowingCredentials: true)
    }
}
