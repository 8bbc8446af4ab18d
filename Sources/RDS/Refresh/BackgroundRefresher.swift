import Foundation
import Synchronization

/// Keeps the followed keys of one repository fresh without traffic: subscribed keys, recently
/// read keys and warm-up keys, as its ``RefreshPolicy`` says.
///
/// Each followed key has one timer in the process's ``RefreshScheduler``. When it is due, the key
/// is dropped if nobody wants it any more; otherwise its stored entry decides: not due yet, the
/// timer is set again; due, one refresh runs within the service's ``RefreshLimiter``: a
/// conditional request when validators are stored, joining a read's fetch under way
/// (single-flight), so subscribers see `.loading(previous:)` then `.loaded` (`origin: revalidated`
/// after a 304: the same value, new timestamps) or `.failed(error, cached:)`. After a failure the
/// next attempt waits 1 s, 2 s, 4 s … (``RefreshPolicy/backoff(afterFailures:)``), shown by
/// ``nextRefresh(of:)``.
public final class BackgroundRefresher<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Follow {
        var reasons: RefreshPolicy.Keys
        var lastRead: Date?
        var lastRefresh: Date?
        var failures = 0
        var timer: UInt64?
        var nextAt: Date?
    }

    private struct State {
        var follows: [Key: Follow] = [:]
        var refused = 0
        var stopped = false
    }

    private let state = Mutex(State())
    /// The repository whose keys are refreshed.
    public let repository: Repository<Key, Value>
    /// Which keys, and when.
    public let policy: RefreshPolicy
    private let scheduler: RefreshScheduler
    private let limiter: RefreshLimiter
    private let isSubscribed: @Sendable (Key) -> Bool
    private let random: @Sendable () -> Double

    /// Creates a refresher; it follows nothing until told to.
    /// - Parameters:
    ///   - repository: The repository to refresh.
    ///   - policy: Which keys, and when.
    ///   - scheduler: The process's timers.
    ///   - limiter: The bound on refreshes running at once for the repository's service.
    ///   - isSubscribed: Whether a key has subscribers now; by default, the repository's broadcasters.
    ///   - random: Jitter source in 0 ..< 1.
    public init(
        repository: Repository<Key, Value>, policy: RefreshPolicy, scheduler: RefreshScheduler,
        limiter: RefreshLimiter, isSubscribed: (@Sendable (Key) -> Bool)? = nil,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.repository = repository
        self.policy = policy
        self.scheduler = scheduler
        self.limiter = limiter
        let broadcasters = repository.store.broadcasters
        self.isSubscribed = isSubscribed ?? { broadcasters.subscriberCount(for: $0) > 0 }
        self.random = random
    }

    /// The number of keys followed.
    public var followedCount: Int { state.withLock { $0.follows.count } }

    /// How many keys were not followed because ``RefreshPolicy/maxKeys`` were.
    public var refusedCount: Int { state.withLock { $0.refused } }

    /// When `key` is refreshed next, or `nil` when it is not followed.
    public func nextRefresh(of key: Key) -> Date? { state.withLock { $0.follows[key]?.nextAt } }

    /// `key` was read: a `recent` policy follows it for ``RefreshPolicy/recentWindow``.
    public func noteRead(_ key: Key) {
        guard policy.keys.contains(.recent) else { return }
        follow(key, because: .recent)
    }

    /// `key` got a subscriber: a `subscribed` policy follows it while it has one.
    public func noteSubscribed(_ key: Key) {
        guard policy.keys.contains(.subscribed) else { return }
        follow(key, because: .subscribed)
    }

    /// Follows the warm-up keys, when the policy names them.
    public func followWarmUp(_ keys: [Key]) {
        guard policy.keys.contains(.warmUp) else { return }
        for key in keys { follow(key, because: .warmUp) }
    }

    /// Refreshes every followed key once now (conditionally, within the limiter), for example
    /// after a gap in the source's change notifications; their timers then follow the new entries.
    public func revalidateAll() {
        let keys = state.withLock { Array($0.follows.keys) }
        Task {
            for key in keys { _ = await limiter.run { await self.refresh(key) } }
        }
    }

    /// Stops following every key and cancels their timers.
    public func stop() {
        let timers: [UInt64] = state.withLock { state in
            state.stopped = true
            defer { state.follows.removeAll() }
            return state.follows.values.compactMap(\.timer)
        }
        for timer in timers { scheduler.cancel(timer) }
    }

    private func follow(_ key: Key, because reason: RefreshPolicy.Keys) {
        let now = repository.store.clock.now
        let isNew: Bool = state.withLock { state in
            guard !state.stopped else { return false }
            if var follow = state.follows[key] {
                follow.reasons.insert(reason)
                if reason == .recent { follow.lastRead = now }
                state.follows[key] = follow
                return false
            }
            guard state.follows.count < policy.maxKeys else {
                state.refused += 1
                return false
            }
            state.follows[key] = Follow(reasons: reason, lastRead: reason == .recent ? now : nil, nextAt: now)
            return true
        }
        // The first check runs at once, without a timer: a timer due now would make the scheduler
        // cancel its sleeper for a later deadline, and a cancelled sleep may hold a system timer
        // until its deadline (dispatch keeps it), which costs CPU with many keys.
        if isNew { due(key) }
    }

    private func schedule(_ key: Key, at date: Date) {
        let timer = scheduler.schedule(at: date) { [weak self] in self?.due(key) }
        let stale: UInt64? = state.withLock { state in
            guard !state.stopped, state.follows[key] != nil else { return timer }
            defer {
                state.follows[key]?.timer = timer
                state.follows[key]?.nextAt = date
            }
            return state.follows[key]?.timer
        }
        if let stale, stale != timer { scheduler.cancel(stale) }
    }

    /// `true` while some reason to follow `key` holds; otherwise the key is dropped.
    private func stillWanted(_ key: Key, at now: Date) -> Bool {
        let wanted: Bool = state.withLock { state in
            guard let follow = state.follows[key] else { return false }
            if follow.reasons.contains(.warmUp) { return true }
            if follow.reasons.contains(.recent), let read = follow.lastRead,
                now.timeIntervalSince(read) < policy.recentWindow
            {
                return true
            }
            return false
        }
        if wanted || (policy.keys.contains(.subscribed) && isSubscribed(key)) { return true }
        state.withLock { _ = $0.follows.removeValue(forKey: key) }
        return false
    }

    private func due(_ key: Key) {
        Task { await check(key) }
    }

    /// Refreshes `key` when its entry is due, then sets its next timer.
    private func check(_ key: Key) async {
        guard stillWanted(key, at: repository.store.clock.now) else { return }
        let entry = await repository.storedEntry(for: key)
        let lastRefresh = state.withLock { $0.follows[key]?.lastRefresh }
        let now = repository.store.clock.now
        guard let due = policy.dueDate(for: entry, lastRefresh: lastRefresh, now: now, random: random()) else {
            state.withLock { _ = $0.follows.removeValue(forKey: key) }
            return
        }
        if due > now { return schedule(key, at: due) }
        let succeeded = await limiter.run { await self.refresh(key) }
        let finished = repository.store.clock.now
        let failures: Int? = state.withLock { state in
            guard var follow = state.follows[key] else { return nil }
            follow.lastRefresh = finished
            follow.failures = succeeded ? 0 : follow.failures + 1
            state.follows[key] = follow
            return follow.failures
        }
        guard let failures else { return }
        if failures > 0 {
            return schedule(key, at: finished.addingTimeInterval(policy.backoff(afterFailures: failures)))
        }
        let stored = await repository.storedEntry(for: key)
        let next = policy.dueDate(for: stored, lastRefresh: finished, now: finished, random: random())
        guard let next else {
            state.withLock { _ = $0.follows.removeValue(forKey: key) }
            return
        }
        schedule(key, at: max(next, finished.addingTimeInterval(policy.minimumDelay)))
    }

    /// One conditional refresh, joining a fetch under way; `true` when it brought a usable answer.
    private func refresh(_ key: Key) async -> Bool {
        do {
            return try await repository.get(key, intent: .revalidate).error == nil
        } catch {
            return false
        }
    }
}
