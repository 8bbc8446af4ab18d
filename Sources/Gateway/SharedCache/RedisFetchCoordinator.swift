import RDS
import Redis

/// One fetch per key across replicas: before a miss (or refresh) fetch, a replica takes the key's
/// lease with `SET <prefix>l:<repository>:<hash> <replica> NX PX <lease>`. The replica that gets
/// it fetches and marks it done after storing (the store's announcement comes first). The others
/// wait, without polling, for the stream's announcement of that key, with the lease's remaining
/// time as their limit, so a holder that crashed cannot wedge the key. When Redis fails, every
/// replica fetches on its own.
public struct RedisFetchCoordinator<Key: Sendable & DatastoreCodable>: FetchCoordinator {
    /// The repository whose keys these are.
    public let repository: String
    private let shared: SharedCache

    /// A coordinator for `repository`'s keys.
    public init(repository: String, shared: SharedCache) {
        self.repository = repository
        self.shared = shared
    }

    /// Takes the lease, or waits for its holder's announcement (or its expiry).
    public func acquire(_ key: Key) async -> FetchLease {
        guard let keyBytes = try? key.encodedBytes() else { return .uncoordinated }
        let lease = shared.leaseKey(repository: repository, keyBytes: keyBytes)
        let milliseconds = String(Int64(shared.settings.lease * 1_000))
        let set = RedisCommand(parts: [
            Array("SET".utf8), lease, Array(shared.replicaID.utf8), Array("NX".utf8), Array("PX".utf8),
            Array(milliseconds.utf8),
        ])
        guard let reply = await shared.run([set], operation: "lease") else { return .uncoordinated }
        if reply[0].string == "OK" {
            return .granted(release: { [shared, repository] in
                await shared.releaseLease(lease, repository: repository)
            })
        }
        let subject = AnnouncementWaiters.Subject(repository: repository, key: keyBytes)
        let signal = shared.waiters.register(subject)
        defer { shared.waiters.remove(signal, for: subject) }
        // Registered first, then asked: an announcement between the SET and now is not missed,
        // and a lease marked done means the answer is stored already.
        let ask = [RedisCommand(parts: [Array("GET".utf8), lease]), RedisCommand(parts: [Array("PTTL".utf8), lease])]
        guard let replies = await shared.run(ask, operation: "lease"), replies[0].string != "done",
            let left = replies[1].integer, left > 0
        else { return .waited }
        shared.health.count(\.leaseWaits)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await signal.wait() }
            group.addTask { try? await Task.sleep(for: .milliseconds(left)) }
            await group.next()
            signal.fire()
            group.cancelAll()
        }
        return .waited
    }
}
