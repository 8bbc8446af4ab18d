import Foundation

/// What a read does, decided purely from the stored entry, the time, the policy and the intent.
///
/// The repository computes a plan, then performs it; keeping the decision free of I/O lets
/// every branch be tested with plain values.
enum ReadPlan<Value: Sendable>: Sendable {
    /// Answer from the stored entry; with `refreshInBackground`, also start one background fetch
    /// (refresh-ahead for a fresh entry, stale-while-revalidate for a stale one).
    case serve(CacheEntry<Value>, CacheStatus, refreshInBackground: Bool)
    /// Ask the service, conditionally when `validators` is set.
    case fetch(validators: Validators?)

    /// Decides how to read.
    /// - Parameters:
    ///   - entry: The stored entry, fresh or stale, or `nil` on a miss.
    ///   - now: The current time.
    ///   - policy: The repository's policy.
    ///   - intent: What the caller asked for.
    static func make(
        entry: CacheEntry<Value>?, at now: Date, policy: RepositoryPolicy, intent: ReadIntent
    ) -> ReadPlan {
        // Read only when the plan fetches: a hit copies no validators.
        var validators: Validators? { entry.flatMap { $0.validators.isEmpty ? nil : $0.validators } }
        switch intent {
        case .reload:
            return .fetch(validators: nil)
        case .revalidate:
            return .fetch(validators: validators)
        case .cached:
            break
        }
        guard policy.mode == .cacheFirst, let entry else { return .fetch(validators: validators) }
        if servesHit(entry, at: now, policy: policy) {
            return .serve(entry, .hit, refreshInBackground: policy.isRefreshAheadDue(entry, at: now))
        }
        if policy.canServeWhileRevalidating(entry, at: now) {
            return .serve(entry, .stale, refreshInBackground: true)
        }
        return .fetch(validators: validators)
    }

    /// `true` when a cached read of `entry` at `now` is a hit (``make(entry:at:policy:intent:)``
    /// plans `.serve(entry, .hit, …)`): the policy is cache-first and the entry fresh.
    static func servesHit(_ entry: CacheEntry<Value>, at now: Date, policy: RepositoryPolicy) -> Bool {
        policy.mode == .cacheFirst && entry.isFresh(at: now)
    }
}
