import Foundation
import Gateway
import HTTP1
import RDS
import RDSTesting

/// Three gateways in this process, each on its own real socket with its own memory level, sharing
/// one real `redis-server` and one upstream: the replicas of the cluster end-to-end tests. (In
/// process rather than three child processes so the tests can read each replica's levels and
/// counters; every request still goes over loopback sockets.)
struct Cluster {
    let redis: RedisTestServer
    let upstream: EndToEndUpstream
    let replicas: [EndToEndGateway]

    /// Starts Redis, the upstream and three gateways whose `items` repository (`/items/{id}`,
    /// `GET`/`PUT`) shares the Redis level under a fresh prefix.
    static func start(
        redisSettings: (inout RedisSettings) -> Void = { _ in }, settings: (inout RepositorySettings) -> Void = { _ in }
    ) async throws -> Cluster {
        let redis = try await RedisTestServer.start()
        let upstream = try await EndToEndUpstream.start()
        var shared = RedisSettings(url: redis.url, prefix: "c\(UInt32.random(in: 0...UInt32.max)):", connectTimeout: 5, commandTimeout: 5)
        redisSettings(&shared)
        var repository = RepositorySettings(route: "/items/{id}", service: "up")
        repository.methods = ["GET", "HEAD", "PUT"]
        settings(&repository)
        let configuration = GatewayConfiguration(
            server: ServerSettings(port: 0), cache: CacheSettings(shared: SharedCacheSettings(redis: shared)),
            services: ["up": ServiceSettings(baseURL: upstream.baseURL)], repositories: ["items": repository])
        let clock = EndToEndGateway.makeClock()
        var replicas: [EndToEndGateway] = []
        for _ in 0..<3 { replicas.append(try await EndToEndGateway.start(configuration: configuration, clock: clock)) }
        let cluster = Cluster(redis: redis, upstream: upstream, replicas: replicas)
        _ = await cluster.waitUntil { cluster.replicas.allSatisfy { $0.shared.statistics.streamJoined } }
        return cluster
    }

    /// Polls `condition` every 10 ms for up to `seconds`; returns whether it held.
    func waitUntil(seconds: Double = 10, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1_000))
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return try await condition()
    }

    /// Stops the gateways, the upstream and Redis.
    func stop() async {
        for replica in replicas { await replica.stop() }
        await upstream.stop()
        await redis.stop()
    }
}

extension EndToEndGateway {
    /// The replica's shared level (the cluster always configures one).
    var shared: SharedCache { container.sharedCache! }

    /// Entries in the `items` repository's memory level.
    var memoryEntries: Int { container.memoryStatistics(named: "items")?.entries ?? -1 }
}
