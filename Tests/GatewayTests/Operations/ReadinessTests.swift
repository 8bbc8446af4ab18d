import Foundation
import Gateway
import RDS
import RDSTesting
import Synchronization
import Testing

struct ReadinessTests {
    @Test func report_IsReady_WhenWarmUpIsOverAndTheCacheFolderIsWritable() async throws {
        try await withTemporaryDirectory { directory in
            let readiness = Readiness(cacheDirectory: directory, services: ["demo"])
            let report = readiness.report()
            #expect(report.ready)
            #expect(report.httpStatus == 200)
            #expect(report.diskCache == "writable")
            let leftOver = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(leftOver.isEmpty)
        }
    }

    @Test func sharedCache_IsNoneOkOrDegraded_AndNeverMakesTheGatewayUnready() throws {
        let readiness = Readiness(cacheDirectory: nil, services: [])
        #expect(readiness.report().sharedCache == "none")
        let statistics = Mutex(SharedCacheStatistics())
        readiness.observeSharedCache { statistics.withLock { $0 } }
        #expect(readiness.report().sharedCache == "degraded")
        statistics.withLock { $0.streamJoined = true }
        #expect(readiness.report().sharedCache == "ok")
        #expect(readiness.report().sharedCacheError == nil)
        statistics.withLock {
            $0.commandsFailing = true
            $0.lastError = "redis_timeout: Redis did not answer in time."
        }
        let degraded = readiness.report()
        #expect(degraded.ready && degraded.httpStatus == 200)
        #expect(degraded.sharedCache == "degraded")
        let json = String(decoding: degraded.jsonBytes(), as: UTF8.self)
        #expect(json.contains(#""shared_cache":"degraded","shared_cache_error":"redis_timeout: Redis did not answer in time.""#))
    }

    @Test func report_IsNotReady_WhileWarmUpRuns() async throws {
        let readiness = Readiness(cacheDirectory: nil, services: [])
        let (duringWarmUp, continuation) = AsyncStream.makeStream(of: ReadinessReport.self)
        let (finishWarmUp, release) = AsyncStream.makeStream(of: Void.self)
        let warmUp = Task {
            await readiness.duringWarmUp {
                continuation.yield(readiness.report())
                for await _ in finishWarmUp { break }
            }
        }
        var reports = duringWarmUp.makeAsyncIterator()
        let during = try #require(await reports.next())
        release.yield()
        await warmUp.value

        #expect(!during.ready)
        #expect(during.httpStatus == 503)
        #expect(during.warmUp == "running")
        #expect(readiness.report().ready)
        #expect(readiness.report().warmUp == "done")
    }

    @Test func report_FlipsToNotReadyAndBack_WhenTheCacheFolderBecomesUnwritable() async throws {
        try await withTemporaryDirectory { parent in
            let cache = parent.appendingPathComponent("cache")
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: false)
            let readiness = Readiness(cacheDirectory: cache, services: [])
            #expect(readiness.report().ready)

            try FileManager.default.removeItem(at: cache)
            // A plain file where the folder was: nothing can be created inside it, even as root.
            try Data("not a folder".utf8).write(to: cache)
            let broken = readiness.report()
            #expect(!broken.ready)
            #expect(broken.diskCache == "unwritable")
            #expect(broken.diskCacheError?.contains(cache.path) == true)
            #expect(broken.diskCacheError?.hasSuffix("Not a directory") == true)

            try FileManager.default.removeItem(at: cache)
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: false)
            #expect(readiness.report().ready)
        }
    }

    @Test func report_SaysDegradedButStaysReady_WhileARepositorysDiskLevelFails() async throws {
        try await withTemporaryDirectory { cache in
            let readiness = Readiness(cacheDirectory: cache, services: [])
            let failure = DatastoreFailure(
                code: "datastore_write_failed", message: "open failed: Not a directory",
                at: Date(timeIntervalSince1970: 1_000_000))
            let statistics = Mutex(DatastoreStatistics(entries: 0, bytes: 0, evictions: 0))
            readiness.observeDisk(repository: "weather") { statistics.withLock { $0 } }
            #expect(readiness.report().diskCache == "writable")

            let degraded = DatastoreStatistics(
                entries: 0, bytes: 0, evictions: 0, writeFailures: 1, lastWriteFailure: failure)
            statistics.withLock { $0 = degraded }
            readiness.observeDisk(repository: "news") { nil }
            let report = readiness.report()

            #expect(report.ready)
            #expect(report.diskCache == "degraded")
            #expect(report.diskLevels.map(\.repository) == ["news", "weather"])
            #expect(report.diskLevels.map(\.status) == [.unavailable, .degraded])
            let json = try #require(JSONSerialization.jsonObject(with: Data(report.jsonBytes())) as? [String: Any])
            let levels = try #require(json["disk_levels"] as? [[String: Any]])
            #expect(levels[1]["write_failures"] as? Int == 1)
            #expect(levels[1]["last_error"] as? String == "open failed: Not a directory")
            #expect(levels[1]["last_failure"] as? String == "1970-01-12T13:46:40Z")
        }
    }

    @Test func report_ListsEachUpstreamsRecentStatus_WithoutAffectingReadiness() throws {
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_000_000))
        let readiness = Readiness(cacheDirectory: nil, services: ["weather", "search"], clock: clock)
        let slot = readiness.upstreamHealth(of: "weather")
        slot.record(errorCode: nil)
        clock.advance(by: 5)
        slot.record(errorCode: "upstream_timeout")
        readiness.upstreamHealth(of: "weather").record(errorCode: "upstream_timeout")

        let report = readiness.report()
        #expect(report.ready)
        #expect(report.upstreams.map(\.service) == ["search", "weather"])
        #expect(report.upstreams[0].status == .unknown)
        let weather = report.upstreams[1]
        #expect(weather.status == .failing)
        #expect(weather.consecutiveFailures == 2)
        #expect(weather.lastError == "upstream_timeout")
        #expect(weather.lastSuccess == Date(timeIntervalSince1970: 1_000_000))
        #expect(weather.lastFailure == Date(timeIntervalSince1970: 1_000_005))

        let json = try #require(JSONSerialization.jsonObject(with: Data(report.jsonBytes())) as? [String: Any])
        #expect(json["ready"] as? Bool == true)
        let upstreams = try #require(json["upstreams"] as? [[String: Any]])
        #expect(upstreams[1]["last_error"] as? String == "upstream_timeout")
        #expect(upstreams[1]["last_failure"] as? String == "1970-01-12T13:46:45Z")
    }

    @Test func upstreamHealth_KeepsItsSlotAcrossAReload_AndListsAServiceNotTrackedYet() {
        let readiness = Readiness(cacheDirectory: nil, services: ["weather", "search"])
        let weather = readiness.upstreamHealth(of: "weather")
        readiness.track(services: ["weather", "news"])
        weather.record(errorCode: "upstream_timeout")
        readiness.upstreamHealth(of: "maps").record(errorCode: nil)

        let report = readiness.report()
        #expect(report.upstreams.map(\.service) == ["maps", "news", "weather"])
        #expect(report.upstreams.map(\.status) == [.ok, .unknown, .failing])
        #expect(readiness.upstreamHealth(of: "weather") === weather)
    }

    @Test func warmUpFailures_AreBounded_AndForgottenByTheNextRound() {
        let readiness = Readiness(cacheDirectory: nil, services: [])
        readiness.warmUpStarted()
        for index in 0..<(Readiness.maxWarmUpFailures + 5) {
            readiness.warmUpFailed(WarmUpFailure(repository: "r", key: "/k/\(index)", error: "upstream_timeout"))
        }
        readiness.warmUpFinished()
        let failed = readiness.report()
        #expect(failed.ready)
        #expect(failed.warmUp == "failed")
        #expect(failed.warmUpFailures?.count == Readiness.maxWarmUpFailures)
        readiness.warmUpStarted()
        readiness.warmUpFinished()
        #expect(readiness.report().warmUp == "done")
        #expect(readiness.report().warmUpFailures == nil)
    }

    /// `server.requireWarmUp`: a warm-up that could not load a key leaves the gateway unready
    /// (503) until a later warm-up round loads everything.
    @Test func requireWarmUp_KeepsTheGatewayUnready_AfterAFailedWarmUp() {
        let readiness = Readiness(cacheDirectory: nil, services: [], requireWarmUp: true)
        readiness.warmUpStarted()
        readiness.warmUpFailed(WarmUpFailure(repository: "r", key: "/k", error: "upstream_unavailable"))
        readiness.warmUpFinished()
        let failed = readiness.report()
        #expect(!failed.ready)
        #expect(failed.httpStatus == 503)
        #expect(failed.warmUp == "failed")
        readiness.warmUpStarted()
        readiness.warmUpFinished()
        #expect(readiness.report().ready)
    }
}

/// Runs `body` with a new empty folder that is removed afterwards.
func withTemporaryDirectory<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rds-ops-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}
