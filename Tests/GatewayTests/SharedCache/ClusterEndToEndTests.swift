import Foundation
import HTTP1
import RDSTesting
import Redis
import Testing

@testable import Gateway

/// Three replicas sharing one real `redis-server` (issue 13): shared hits, invalidation that
/// reaches every replica, SSE on other replicas, gaps flushing memory.
@Suite(.enabled(if: RedisTestServer.isEnabled, "needs redis-server (apt-get install redis-server)"), .serialized)
struct ClusterEndToEndTests {
    private static func reply(_ body: String) -> EndToEndUpstream.Reply {
        EndToEndUpstream.Reply(headers: ["Content-Type": "application/json", "Cache-Control": "max-age=300"], body: body)
    }

    @Test func fetchedOnA_IsAHitOnBAndC_WithOneUpstreamCall() async throws {
        let cluster = try await Cluster.start()
        cluster.upstream.on("/items/a") { _, call in Self.reply(#"{"call":\#(call)}"#) }
        let (a, b, c) = (cluster.replicas[0], cluster.replicas[1], cluster.replicas[2])
        let first = try await a.get("/items/a")
        #expect(first.headers["X-Cache"] == "MISS")
        for replica in [b, c] {
            let answer = try await replica.get("/items/a")
            #expect(answer.status == 200)
            #expect(answer.headers["X-Cache"] == "HIT")
            #expect(answer.text == #"{"call":1}"#)
        }
        #expect(cluster.upstream.calls("/items/a") == 1)
        #expect(b.shared.statistics.hits == 1 && c.shared.statistics.hits == 1)
        // A's announcement of the entry B and C already read does not drop their copies.
        #expect(await cluster.waitUntil { b.shared.statistics.applied == 1 && c.shared.statistics.applied == 1 })
        #expect(b.memoryEntries == 1 && c.memoryEntries == 1)
        await cluster.stop()
    }

    @Test func purgeOnB_EmptiesAAndC() async throws {
        let cluster = try await Cluster.start()
        cluster.upstream.on("/items/p") { _, call in Self.reply(#"{"call":\#(call)}"#) }
        for replica in cluster.replicas { _ = try await replica.get("/items/p") }
        #expect(cluster.replicas.allSatisfy { $0.memoryEntries == 1 })
        let purge = try await cluster.replicas[1].send(.delete, "/admin/repositories/items/cache?path=/items/p")
        #expect(purge.status == 200)
        #expect(await cluster.waitUntil { cluster.replicas.allSatisfy { $0.memoryEntries == 0 } })
        let again = try await cluster.replicas[0].get("/items/p")
        #expect(again.text == #"{"call":2}"#)
        #expect(try await cluster.replicas[2].get("/items/p").headers["X-Cache"] == "HIT")
        #expect(cluster.upstream.calls("/items/p") == 2)
        await cluster.stop()
    }

    @Test func tagPurgeOnB_EmptiesAAndC() async throws {
        let cluster = try await Cluster.start()
        for id in ["t1", "t2"] {
            cluster.upstream.on("/items/\(id)") { _, call in
                var reply = Self.reply(#"{"call":\#(call)}"#)
                reply.headers["Surrogate-Key"] = "group"
                return reply
            }
        }
        for replica in cluster.replicas {
            for id in ["t1", "t2"] { #expect(try await replica.get("/items/\(id)").status == 200) }
        }
        #expect(cluster.replicas.allSatisfy { $0.memoryEntries == 2 })
        let purge = try await cluster.replicas[1].send(.delete, "/admin/repositories/items/cache?tag=group")
        #expect(purge.status == 200)
        #expect(purge.json["count"] as? Int == 2)
        #expect(await cluster.waitUntil { cluster.replicas.allSatisfy { $0.memoryEntries == 0 } })
        #expect(try await cluster.replicas[2].get("/items/t1").text == #"{"call":2}"#)
        #expect(cluster.upstream.calls("/items/t1") == 2 && cluster.upstream.calls("/items/t2") == 1)
        await cluster.stop()
    }

    @Test func tagPurgeOnB_ReachesAResourceOnlyAHasRead_ThroughRedisTagSets() async throws {
        let cluster = try await Cluster.start()
        cluster.upstream.on("/items/solo") { _, call in
            var reply = Self.reply(#"{"call":\#(call)}"#)
            reply.headers["Surrogate-Key"] = "solo other"
            return reply
        }
        let (a, b) = (cluster.replicas[0], cluster.replicas[1])
        _ = try await a.get("/items/solo")
        #expect(a.memoryEntries == 1 && b.memoryEntries == 0)
        let purge = try await b.send(.delete, "/admin/repositories/items/cache?tag=solo")
        #expect(purge.json["count"] as? Int == 1)
        #expect(await cluster.waitUntil { a.memoryEntries == 0 })
        #expect(try await a.get("/items/solo").text == #"{"call":2}"#)
        // The tag's sorted set holds the key with its entry's expiry, and expires itself.
        let raw = RedisClient(configuration: try RedisConfiguration(url: cluster.redis.url, commandTimeout: .seconds(5)))
        let keys = try await raw.send(RedisCommand("KEYS", a.shared.settings.prefix + "t:items:*")).array ?? []
        #expect(keys.count == 2)
        for key in keys.compactMap(\.bytes) {
            #expect(try await raw.send(RedisCommand(parts: [Array("ZCARD".utf8), key])).integer == 1)
            #expect((try await raw.send(RedisCommand(parts: [Array("PTTL".utf8), key])).integer ?? 0) > 0)
        }
        await cluster.stop()
    }

    @Test func writeOnA_IsSeenBySubscribersOnBAndC_ExactlyOnce() async throws {
        let cluster = try await Cluster.start()
        cluster.upstream.on("/items/w") { request, _ in
            request.method == .put ? Self.reply(#"{"note":"written"}"#) : Self.reply(#"{"note":"first"}"#)
        }
        let (a, b, c) = (cluster.replicas[0], cluster.replicas[1], cluster.replicas[2])
        _ = try await a.get("/items/w")
        let streams = try [b.subscribe("/items/w"), c.subscribe("/items/w")]
        for stream in streams { await stream.waitForEvents(1) }
        let write = try await a.send(.put, "/items/w", headers: ["Content-Type": "application/json"], body: #"{"note":"written"}"#)
        #expect(write.status == 200)
        for stream in streams {
            await stream.waitForEvents(2)
            #expect(stream.events.last?.name == "loaded")
            #expect(stream.events.last?.data.contains("written") == true)
        }
        // Exactly once: a later, unrelated change elsewhere arrives, and still one event for the write.
        cluster.upstream.on("/items/x") { _, _ in Self.reply("{}") }
        _ = try await a.get("/items/x")
        #expect(await cluster.waitUntil { b.shared.statistics.applied >= 2 && c.shared.statistics.applied >= 2 })
        for stream in streams {
            #expect(stream.events.filter { $0.data.contains("written") }.count == 1)
            #expect(stream.events.count == 2, "\(stream.events)")
            stream.close()
        }
        await cluster.stop()
    }

    @Test func streamGap_FlushesMemory_WithALogLineAndAMetric() async throws {
        let cluster = try await Cluster.start()
        cluster.upstream.on("/items/g") { _, _ in Self.reply("{}") }
        let b = cluster.replicas[1]
        _ = try await b.get("/items/g")
        #expect(b.memoryEntries == 1)
        // News that B never reads: added and trimmed away in one transaction.
        let raw = RedisClient(configuration: try RedisConfiguration(url: cluster.redis.url, commandTimeout: .seconds(5)))
        let stream = b.shared.settings.prefix + "invalidations"
        let replies = try await raw.pipeline([
            RedisCommand("MULTI"), RedisCommand("XADD", stream, "*", "r", "elsewhere", "p", "items", "o", "stored", "k", "x", "v", "1"),
            RedisCommand("XTRIM", stream, "MAXLEN", "0"), RedisCommand("EXEC"),
        ])
        #expect(replies.last?.array?.count == 2)
        #expect(await cluster.waitUntil { b.shared.statistics.flushes >= 1 })
        #expect(b.memoryEntries == 0)
        let log = try #require(b.container.logger as? RecordingLogger)
        #expect(log.entries.contains { $0.event == "shared_cache_flushed" && $0.fields["reason"] == .string("stream_trimmed") })
        #expect(b.container.metrics.prometheusText().contains(#"rds_gateway_shared_cache_events_total{event="flush"} "#))
        await cluster.stop()
    }

    @Test func redisKilled_NoRequestFails_ReadinessDegraded_ThenReplicasRejoin() async throws {
        let cluster = try await Cluster.start { $0.commandTimeout = 1 }
        cluster.upstream.on("/items/k") { _, call in Self.reply(#"{"call":\#(call)}"#) }
        cluster.upstream.on("/items/cold") { _, call in Self.reply(#"{"call":\#(call)}"#) }
        for replica in cluster.replicas { _ = try await replica.get("/items/k") }
        await cluster.redis.stop()
        for replica in cluster.replicas {
            #expect(try await replica.get("/items/k").status == 200)
            #expect(try await replica.get("/items/cold").status == 200)
        }
        #expect(await cluster.waitUntil { cluster.replicas.allSatisfy { $0.shared.statistics.isDegraded } })
        let ready = try await cluster.replicas[0].get("/health/ready")
        #expect(ready.status == 200)
        #expect(ready.text.contains(#""shared_cache":"degraded""#))
        let metrics = try await cluster.replicas[0].get("/metrics")
        #expect(metrics.text.contains("rds_gateway_shared_cache_degraded 1"))

        let back = try await RedisTestServer.start(port: cluster.redis.port)
        #expect(await cluster.waitUntil { cluster.replicas.allSatisfy { $0.shared.statistics.streamJoined } })
        // Rejoining flushed the local levels: news may have been missed while Redis was gone.
        #expect(cluster.replicas.allSatisfy { $0.shared.statistics.flushes >= 1 && $0.memoryEntries == 0 })
        // Each replica's pool reconnects after its backoff (at most 2 s); then purges travel again.
        var statuses: Set<Int> = []
        let rejoined = try await cluster.waitUntil(seconds: 30) {
            var healthy = true
            for replica in cluster.replicas {
                statuses.insert(try await replica.get("/items/k").status)
                healthy = try await replica.get("/health/ready").text.contains(#""shared_cache":"ok""#) && healthy
            }
            return healthy
        }
        #expect(rejoined, "\(cluster.replicas.map { $0.shared.statistics })")
        #expect(statuses == [200])
        #expect(try await cluster.replicas[1].send(.delete, "/admin/repositories/items/cache?path=/items/k").status == 200)
        #expect(await cluster.waitUntil { cluster.replicas.allSatisfy { $0.memoryEntries == 0 } })
        for replica in cluster.replicas { await replica.stop() }
        await cluster.upstream.stop()
        await back.stop()
    }

    @Test func coldKey_600ClientsOnThreeReplicas_MakeOneUpstreamCall() async throws {
        let cluster = try await Cluster.start()
        cluster.upstream.on("/items/cold") { _, call in
            var reply = Self.reply(#"{"call":\#(call)}"#)
            reply.waitForGate = true
            return reply
        }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for replica in cluster.replicas {
                for _ in 0..<200 { group.addTask { try await replica.get("/items/cold").status } }
            }
            await cluster.upstream.waitForArrivals(1)
            // The replicas without the lease wait for the holder's announcement, not the upstream.
            // A wait is counted once its replica has asked whether the lease is still held, which
            // is after it registers for the announcement: opening the gate before both have
            // asked could let one find the lease done and not wait at all.
            let bothWait = await cluster.waitUntil {
                cluster.replicas.map { $0.shared.statistics.leaseWaits }.reduce(0, +) == 2
            }
            #expect(bothWait, "\(cluster.replicas.map { $0.shared.statistics })")
            cluster.upstream.openGate()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.count == 600)
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(cluster.upstream.calls("/items/cold") == 1)
        #expect(cluster.replicas.map { $0.shared.statistics.leaseWaits }.reduce(0, +) == 2)
        await cluster.stop()
    }

    @Test func hungRedis_TimesOut_AndTheReplicaAnswersFromUpstreamAndMemory() async throws {
        let cluster = try await Cluster.start {
            $0.commandTimeout = 0.2
            $0.connectTimeout = 0.2
        }
        cluster.upstream.on("/items/s") { _, call in Self.reply(#"{"call":\#(call)}"#) }
        let a = cluster.replicas[0]
        cluster.redis.freeze()
        let first = try await a.get("/items/s")
        let second = try await a.get("/items/s")
        #expect(first.status == 200 && second.status == 200)
        #expect(second.headers["X-Cache"] == "HIT")
        #expect(a.shared.statistics.errors >= 1)
        let ready = try await a.get("/health/ready")
        #expect(ready.status == 200)
        #expect(ready.text.contains(#""shared_cache":"degraded""#))
        #expect(ready.text.contains("redis_timeout"))
        cluster.redis.thaw()
        await cluster.stop()
    }
}
