import HTTPCaching
import RDS

extension RepositorySettings {
    /// The RDS policy these settings describe.
    var repositoryPolicy: RepositoryPolicy {
        RepositoryPolicy(
            mode: policy == .cacheFirst ? .cacheFirst : .networkFirst, minTTL: minTTL, maxTTL: maxTTL,
            defaultTTL: defaultTTL, staleWhileRevalidate: staleWhileRevalidate, staleIfError: staleIfError,
            refreshAhead: refreshAhead, fetchDeadline: fetchDeadline)
    }

    /// `true` when `representation`'s stored lifetime is heuristic (RFC 9111 §4.2.2); always
    /// `false`, at no cost, while ``heuristicFraction`` is off.
    func isHeuristic(_ representation: Representation) -> Bool {
        heuristicFraction != nil
            && freshnessPolicy.isHeuristic(status: representation.status, headers: representation.headers)
    }

    /// The RFC 9111 rules of this repository: its targeted field, the upstream's stale windows
    /// bounded by its own, its heuristic fraction.
    var freshnessPolicy: FreshnessPolicy {
        FreshnessPolicy(
            targetedField: targetedCacheControl, maxStaleWhileRevalidate: staleWhileRevalidate,
            maxStaleIfError: staleIfError, heuristicFraction: heuristicFraction)
    }
}
