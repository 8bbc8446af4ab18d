import Foundation
import RDS
import Synchronization

/// Decides whether the gateway is ready for traffic: not while warm-up runs, not while the disk
/// cache folder is unwritable, not while a service's first OAuth2 token request is under way
/// (`auth: pending`, bounded by that request's timeouts). A failing token endpoint
/// (`auth: failing`) is reported but does not make the gateway unready: cached values still
/// answer, and other services are unaffected. Also keeps each upstream's recent status and reads
/// each repository's disk level for the report (a degraded disk level never makes the gateway
/// unready: the repository still caches in memory).
public final class Readiness: Sendable {
    private let cacheDirectory: URL?
    private let requireWarmUp: Bool
    private let clock: any ClockProvider
    private let state: Mutex<State>

    private struct State {
        var warmUpsRunning = 0
        var upstreams: [String: UpstreamHealthSlot]
        var auth: [String: @Sendable () -> AuthStatus] = [:]
        var diskLevels: [String: @Sendable () -> DatastoreStatistics?] = [:]
        var sharedCache: (@Sendable () -> SharedCacheStatistics)?
        var writeQueues: [String: @Sendable () -> WriteQueueHealth] = [:]
        /// The keys the last warm-up could not load, at most ``Readiness/maxWarmUpFailures``.
        var warmUpFailures: [WarmUpFailure] = []
    }

    /// The most warm-up failures kept for the report.
    public static let maxWarmUpFailures = 100

    /// Creates the model.
    /// - Parameters:
    ///   - cacheDirectory: The disk cache folder, probed on every report; `nil` when there is no disk cache.
    ///   - services: The upstream services to list, by name.
    ///   - requireWarmUp: When `true`, a warm-up that could not load some keys leaves the gateway
    ///     unready until the next warm-up succeeds (`server.requireWarmUp`).
    ///   - clock: Stamps upstream outcomes.
    public init(
        cacheDirectory: URL?, services: [String], requireWarmUp: Bool = false, clock: any ClockProvider = SystemClock()
    ) {
        self.cacheDirectory = cacheDirectory
        self.requireWarmUp = requireWarmUp
        self.clock = clock
        let upstreams = Dictionary(services.map { ($0, UpstreamHealthSlot(service: $0, clock: clock)) }) { first, _ in
            first
        }
        state = Mutex(State(upstreams: upstreams))
    }

    /// Lists exactly `services` from now on (after a configuration reload): new ones start with
    /// no outcome, removed ones are dropped, the others keep their recent status.
    public func track(services: [String]) {
        state.withLock { state in
            state.upstreams = Dictionary(
                services.map { ($0, state.upstreams[$0] ?? UpstreamHealthSlot(service: $0, clock: clock)) }
            ) { first, _ in first }
        }
    }

    /// Reads the token status of exactly these services from now on (those with OAuth2).
    public func trackAuth(_ statuses: [String: @Sendable () -> AuthStatus]) {
        state.withLock { $0.auth = statuses }
    }

    /// Marks a warm-up as running; the gateway is not ready until each has finished. The first of
    /// a new round forgets the failures of the previous one.
    public func warmUpStarted() {
        state.withLock { state in
            if state.warmUpsRunning == 0 { state.warmUpFailures = [] }
            state.warmUpsRunning += 1
        }
    }

    /// Records a key warm-up could not load: the report then says `failed` and lists it. It makes
    /// the gateway unready only when warm-up is required (else a request loads the key on demand).
    public func warmUpFailed(_ failure: WarmUpFailure) {
        state.withLock { state in
            if state.warmUpFailures.count < Self.maxWarmUpFailures { state.warmUpFailures.append(failure) }
        }
    }

    /// Marks a warm-up as finished.
    public func warmUpFinished() {
        state.withLock { $0.warmUpsRunning = max(0, $0.warmUpsRunning - 1) }
    }

    /// Runs `warmUp`, not ready meanwhile.
    public func duringWarmUp<Result>(_ warmUp: () async -> Result) async -> Result {
        warmUpStarted()
        defer { warmUpFinished() }
        return await warmUp()
    }

    /// Where the calls of `service` record their outcomes (listed from now on, if it was not yet):
    /// resolved once per service, not per call.
    public func upstreamHealth(of service: String) -> UpstreamHealthSlot {
        state.withLock { state in
            if let slot = state.upstreams[service] { return slot }
            let slot = UpstreamHealthSlot(service: service, clock: clock)
            state.upstreams[service] = slot
            return slot
        }
    }

    /// Reads a repository's disk level at every report, instead of any reader given before for it.
    /// - Parameters:
    ///   - repository: The repository owning the level.
    ///   - statistics: Returns the level's current statistics, `nil` when it is unavailable; must not block.
    public func observeDisk(repository: String, statistics: @escaping @Sendable () -> DatastoreStatistics?) {
        state.withLock { $0.diskLevels[repository] = statistics }
    }

    /// Reads the shared cache's state at every report (it never makes the gateway unready).
    public func observeSharedCache(_ statistics: @escaping @Sendable () -> SharedCacheStatistics) {
        state.withLock { $0.sharedCache = statistics }
    }

    /// Reads the outbox of `repository` at every report, replacing an earlier reader.
    func observeWriteQueue(_ outbox: WriteOutbox) {
        let read: @Sendable () -> WriteQueueHealth = {
            WriteQueueHealth(
                repository: outbox.repository, pending: outbox.pendingCount, deadLetters: outbox.deadCount,
                oldestPendingAgeSeconds: Int(outbox.oldestPendingAge))
        }
        state.withLock { $0.writeQueues[outbox.repository] = read }
    }

    /// Stops reading the outbox of `repository` (removed by a configuration reload).
    func forgetWriteQueue(repository: String) {
        state.withLock { _ = $0.writeQueues.removeValue(forKey: repository) }
    }

    /// Stops reading the disk level of `repository` (removed by a configuration reload).
    public func forgetDisk(repository: String) {
        state.withLock { _ = $0.diskLevels.removeValue(forKey: repository) }
    }

    /// Probes the disk cache and reads the disk levels (outside any lock) and reports.
    public func report() -> ReadinessReport {
        let (warmingUp, recorded, observed, failures, auth, shared, queues) = state.withLock {
            ($0.warmUpsRunning > 0, $0.upstreams, $0.diskLevels, $0.warmUpFailures, $0.auth, $0.sharedCache?(),
             $0.writeQueues)
        }
        let diskError = cacheDirectory.flatMap(Self.probeWritable)
        let diskLevels = observed.sorted { $0.key < $1.key }.map {
            DiskLevelHealth(repository: $0.key, statistics: $0.value())
        }
        let diskCache =
            switch (cacheDirectory, diskError) {
            case (nil, _): "none"
            case (_, .some): "unwritable"
            case _ where diskLevels.contains(where: \.isDegraded): "degraded"
            default: "writable"
            }
        var upstreams = recorded.mapValues(\.current)
        for (service, read) in auth where upstreams[service] != nil {
            let status = read()
            upstreams[service]?.auth = status.state.rawValue
            upstreams[service]?.authError = status.error
        }
        let authPending = upstreams.values.contains { $0.auth == AuthStatus.State.pending.rawValue }
        return ReadinessReport(
            ready: !warmingUp && diskError == nil && !(requireWarmUp && !failures.isEmpty) && !authPending,
            warmUp: warmingUp ? "running" : (failures.isEmpty ? "done" : "failed"),
            warmUpFailures: failures.isEmpty ? nil : failures,
            diskCache: diskCache,
            diskCacheError: diskError,
            diskLevels: diskLevels,
            sharedCache: shared.map { $0.isDegraded ? "degraded" : "ok" } ?? "none",
            sharedCacheError: shared?.isDegraded == true ? shared?.lastError : nil,
            upstreams: upstreams.values.sorted { $0.service < $1.service },
            writeQueues: queues.sorted { $0.key < $1.key }.map { $0.value() })
    }

    /// Creates, writes and removes a probe file in `directory` with POSIX calls (so `errno` is
    /// the real reason); returns why that failed, or `nil`.
    private static func probeWritable(_ directory: URL) -> String? {
        let probe = directory.appendingPathComponent(".ready-probe-\(RequestID.generate().value)").path
        let descriptor = open(probe, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            return "cannot create a file in \(directory.path): \(String(cString: strerror(errno)))"
        }
        let written = write(descriptor, "ok", 2)
        let writeError = errno
        close(descriptor)
        guard unlink(probe) == 0 else { return "cannot remove \(probe): \(String(cString: strerror(errno)))" }
        guard written == 2 else { return "cannot write in \(directory.path): \(String(cString: strerror(writeError)))" }
        return nil
    }
}
