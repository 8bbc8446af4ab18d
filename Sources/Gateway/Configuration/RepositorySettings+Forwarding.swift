extension RepositorySettings {
    /// The headers that are forwarded and key the cache: `forwardHeaders` and `cacheKey.headers`
    /// together; `Cookie` and `Authorization` pass when listed. `Content-Type` describes a write's
    /// body, which the write forwards itself: keying on it would store a write's answer under a
    /// key no `GET` uses, and leave the `GET`'s entry un-invalidated (RFC 9111 §4.4).
    var forwardedHeaderList: HeaderAllowList {
        HeaderAllowList(
            (forwardHeaders + cacheKey.headers).filter { $0.lowercased() != "content-type" }, allowingCredentials: true)
    }
}
