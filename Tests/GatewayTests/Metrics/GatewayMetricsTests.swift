import Foundation
import Gateway
import RDS
import Testing

struct GatewayMetricsTests {
    @Test func prometheusText_ListsEveryGatewayMetric_InValidText() throws {
        let metrics = GatewayMetrics()
        metrics.registerRepository("weather")
        _ = metrics.recorder(service: "demo")
        metrics.observeCache(repository: "weather", level: "memory") {
            DatastoreStatistics(entries: 2, bytes: 512, evictions: 1)
        }
        metrics.observeDisk(repository: "weather") {
            DatastoreStatistics(
                entries: 0, bytes: 0, evictions: 0, writeFailures: 4,
                lastWriteFailure: DatastoreFailure(code: "datastore_write_failed", message: "no space", at: Date()))
        }
        metrics.observeDisk(repository: "news") { nil }
        metrics.observeOpenConnections { 3 }
        metrics.observeInFlightBodyBytes { 4_096 }

        let families = try PrometheusTextParser.parse(metrics.prometheusText())

        #expect(
            families.map(\.name) == [
                "rds_gateway_cache_bytes", "rds_gateway_cache_coalesced_waiters_total", "rds_gateway_cache_entries",
                "rds_gateway_cache_evictions_total", "rds_gateway_cache_lookups_total", "rds_gateway_disk_degraded",
                "rds_gateway_disk_write_failures_total", "rds_gateway_hook_requests_total",
                "rds_gateway_http_request_duration_seconds", "rds_gateway_http_requests_in_flight",
                "rds_gateway_http_requests_total", "rds_gateway_inflight_body_bytes", "rds_gateway_open_connections",
                "rds_gateway_purged_resources_total", "rds_gateway_shared_cache_degraded",
                "rds_gateway_shared_cache_events_total", "rds_gateway_upstream_auth_retries_total",
                "rds_gateway_upstream_errors_total",
                "rds_gateway_upstream_request_duration_seconds", "rds_gateway_upstream_requests_total",
                "rds_gateway_upstream_token_age_seconds", "rds_gateway_upstream_token_requests_total",
                "rds_gateway_write_dead_letters", "rds_gateway_write_queue_depth",
                "rds_gateway_write_queue_oldest_age_seconds", "rds_gateway_write_replay_delay_seconds",
                "rds_gateway_writes_total",
            ])
        let lookups = try #require(families.first { $0.name == "rds_gateway_cache_lookups_total" })
        #expect(lookups.samples.map { $0.labels["result"] } == ["bypass", "hit", "miss", "revalidated", "stale"])
        #expect(lookups.samples.allSatisfy { $0.value == 0 })
        #expect(value(in: families, "rds_gateway_cache_bytes", ["repository": "weather", "level": "memory"]) == 512)
        #expect(
            value(in: families, "rds_gateway_cache_evictions_total", ["repository": "weather", "level": "memory"]) == 1)
        #expect(value(in: families, "rds_gateway_disk_degraded", ["repository": "weather"]) == 1)
        #expect(value(in: families, "rds_gateway_disk_degraded", ["repository": "news"]) == 1)
        #expect(value(in: families, "rds_gateway_disk_write_failures_total", ["repository": "weather"]) == 4)
        #expect(value(in: families, "rds_gateway_open_connections", [:]) == 3)
        #expect(value(in: families, "rds_gateway_inflight_body_bytes", [:]) == 4_096)
    }

    @Test func cacheResult_ReadsXCacheValues_InAnyLetterCase() {
        for result in GatewayMetrics.CacheResult.allCases {
            #expect(GatewayMetrics.CacheResult(xCache: result.rawValue.uppercased()) == result)
            #expect(GatewayMetrics.CacheResult(xCache: result.rawValue) == result)
        }
        #expect(GatewayMetrics.CacheResult(xCache: "Hit") == .hit)
        #expect(GatewayMetrics.CacheResult(xCache: "EXPIRED") == nil)
    }

    @Test func counters_FollowAScriptedSequenceOfAnswers() throws {
        let metrics = GatewayMetrics()
        metrics.registerRepository("weather")
        for result: GatewayMetrics.CacheResult in [.miss, .hit, .hit, .stale, .revalidated, .hit] {
            metrics.recordCacheResult(result, repository: "weather")
        }
        metrics.observeCoalescedWaiters(repository: "weather") { 4 }
        metrics.recorder(service: "demo").record(nanoseconds: 20_000_000, errorCode: nil)
        metrics.recorder(service: "demo").record(nanoseconds: 2_000_000_000, errorCode: "upstream_timeout")
        metrics.recordRequest(route: "/weather/{city}", method: "GET", status: 200, duration: .microseconds(300))
        metrics.recordRequest(route: "/weather/{city}", method: "GET", status: 200, duration: .milliseconds(3))
        metrics.recordRequest(route: "/weather/{city}", method: "GET", status: 504, duration: .seconds(2))

        let families = try PrometheusTextParser.parse(metrics.prometheusText())
        let weather = ["repository": "weather"]

        #expect(value(in: families, "rds_gateway_cache_lookups_total", weather.merging(["result": "hit"]) { $1 }) == 3)
        #expect(value(in: families, "rds_gateway_cache_lookups_total", weather.merging(["result": "miss"]) { $1 }) == 1)
        #expect(
            value(in: families, "rds_gateway_cache_lookups_total", weather.merging(["result": "stale"]) { $1 }) == 1)
        #expect(value(in: families, "rds_gateway_cache_coalesced_waiters_total", weather) == 4)
        #expect(value(in: families, "rds_gateway_upstream_requests_total", ["service": "demo"]) == 2)
        #expect(
            value(in: families, "rds_gateway_upstream_errors_total", ["service": "demo", "code": "upstream_timeout"])
                == 1)
        let ok = ["route": "/weather/{city}", "method": "GET", "status": "200"]
        #expect(value(in: families, "rds_gateway_http_requests_total", ok) == 2)
        #expect(value(in: families, "rds_gateway_http_requests_total", ok.merging(["status": "504"]) { $1 }) == 1)
        let route = ["route": "/weather/{city}"]
        let duration = "rds_gateway_http_request_duration_seconds"
        let fastest = route.merging(["le": "0.001"]) { $1 }
        #expect(value(in: families, duration, fastest, sample: duration + "_bucket") == 1)
        #expect(value(in: families, duration, route, sample: duration + "_count") == 3)
    }

    /// A route's recorder counts in the very series that counting by label uses, for more
    /// (method, status) pairs than it lists itself, and counts its repository's reads.
    @Test func routeRecorder_CountsInTheLabelledSeries_BeyondItsList() throws {
        let metrics = GatewayMetrics()
        let recorder = metrics.recorder(route: "/weather/{city}", repository: "weather")
        let statuses = Array(200..<(200 + RouteRecorder.listedCounters + 4))
        for status in statuses {
            for _ in 0..<2 {
                recorder.record(method: "GET", status: status, nanoseconds: 50_000, cacheResult: .hit)
            }
        }
        recorder.record(method: "PUT", status: 200, nanoseconds: 2_000_000_000, cacheResult: nil)
        metrics.recordRequest(route: "/weather/{city}", method: "GET", status: 200, duration: .milliseconds(1))

        let families = try PrometheusTextParser.parse(metrics.prometheusText())
        let requests = "rds_gateway_http_requests_total"
        for status in statuses {
            let labels = ["route": "/weather/{city}", "method": "GET", "status": String(status)]
            #expect(value(in: families, requests, labels) == (status == 200 ? 3 : 2), "status \(status)")
        }
        #expect(value(in: families, requests, ["route": "/weather/{city}", "method": "PUT", "status": "200"]) == 1)
        let duration = "rds_gateway_http_request_duration_seconds"
        #expect(
            value(in: families, duration, ["route": "/weather/{city}"], sample: duration + "_count")
                == Double(2 * statuses.count + 2))
        let lookups = "rds_gateway_cache_lookups_total"
        #expect(value(in: families, lookups, ["repository": "weather", "result": "hit"]) == Double(2 * statuses.count))
        #expect(value(in: families, lookups, ["repository": "weather", "result": "miss"]) == 0)
    }
}

/// The value of the sample of `family` (named `sample`, by default the family's name) with exactly `labels`.
func value(
    in families: [PrometheusTextParser.Family], _ family: String, _ labels: [String: String], sample: String? = nil
) -> Double? {
    families.first { $0.name == family }?.samples.first { $0.name == (sample ?? family) && $0.labels == labels }?.value
}
