import RDS

extension RepositorySettings {
    /// The RDS policy these settings describe.
    var repositoryPolicy: RepositoryPolicy {
        RepositoryPolicy(
            mode: policy == .cacheFirst ? .cacheFirst : .networkFirst, minTTL: minTTL, maxTTL: maxTTL,
            defaultTTL: defaultTTL, staleWhileRevalidate: staleWhileRevalidate, staleIfError: staleIfError,
            refreshAhead: refreshAhead, fetchDeadline: fetchDeadline)
    }
}
