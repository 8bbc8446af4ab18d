import Foundation
import RDS
import Redis
import Synchronization

/// This replica's side of the shared level: the Redis connections, the invalidation stream and
/// what it applies to (one ``SharedCacheTarget`` per repository).
///
/// Built once per process from `cache.shared.redis` and kept across configuration reloads (like
/// the metrics). Cache commands use a small pool; the stream is read on a dedicated connection
/// with `XREAD BLOCK` from where this replica left off (see `SharedCache+Listening.swift`). Redis
/// failing never fails a client request: the datastores answer a miss or skip the write, the
/// replica reports `degraded`, and it rejoins the stream (flushing its local levels) when Redis is back.
public final class SharedCache: Sendable {
    /// The settings it was made with.
    public let settings: RedisSettings
    /// This process's id in stream messages (random per start).
    public let replicaID: String
    /// Cache commands.
    let client: RedisClient
    /// The stream reader's own connection.
    let streamClient: RedisClient
    let health = SharedCacheHealth()
    let logger: any Logger
    /// The stream's key: `<prefix>invalidations`.
    let streamKey: String
    /// How long one `XREAD BLOCK` waits.
    let blockTime = Duration.seconds(2)
    let targets = Mutex<[String: SharedCacheTarget]>([:])
    /// Fetches waiting for another replica's announcement of their key.
    let waiters = AnnouncementWaiters()
    private let reader = Mutex<Task<Void, Never>?>(nil)

    /// Connects lazily to the Redis of `settings`.
    /// - Parameter environment: Where a `password` given as `{"env": …}` is read.
    /// - Throws: ``ConfigurationError`` naming `cache.shared.redis.*` when the URL or the password
    ///   source cannot be used.
    public init(
        settings: RedisSettings, logger: any Logger, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) {
        let password: String?
        do {
            password = try settings.password.map { try SecretReader($0, what: "Redis password", environment: environment).read() }
        } catch {
            throw ConfigurationError(
                file: "<configuration>", keyPath: "cache.shared.redis.password",
                problem: "the Redis password could not be read from the \(settings.password.map { "\($0)" } ?? "source")")
        }
        let configuration: RedisConfiguration
        do {
            configuration = try RedisConfiguration(
                url: settings.url, username: settings.username, password: password,
                connectTimeout: .milliseconds(Int64(settings.connectTimeout * 1_000)),
                commandTimeout: .milliseconds(Int64(settings.commandTimeout * 1_000)), poolSize: settings.poolSize)
        } catch {
            throw ConfigurationError(file: "<configuration>", keyPath: "cache.shared.redis.url", problem: error.message)
        }
        var streamConfiguration = configuration
        streamConfiguration.poolSize = 1
        self.settings = settings
        self.logger = logger
        replicaID = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        client = RedisClient(configuration: configuration, name: "redis.shared")
        streamClient = RedisClient(configuration: streamConfiguration, name: "redis.stream")
        streamKey = settings.prefix + "invalidations"
    }

    /// The counters and state now.
    public var statistics: SharedCacheStatistics { health.statistics }

    /// The Redis key of an entry: prefix, repository, SHA-256 of the key bytes (any key length is safe).
    func entryKey(repository: String, keyBytes: [UInt8]) -> [UInt8] {
        Array("\(settings.prefix)e:\(repository):".utf8) + Self.hex(SHA256.digest(keyBytes))
    }

    /// The Redis key of a tag's sorted set: `<prefix>t:<repository>:<SHA-256 of the tag>`.
    func tagKey(repository: String, tag: String) -> [UInt8] {
        Array("\(settings.prefix)t:\(repository):".utf8) + Self.hex(SHA256.digest(Array(tag.utf8)))
    }

    /// The Redis key of a fetch lease: `<prefix>l:<repository>:<SHA-256 of the key bytes>`.
    func leaseKey(repository: String, keyBytes: [UInt8]) -> [UInt8] {
        Array("\(settings.prefix)l:\(repository):".utf8) + Self.hex(SHA256.digest(keyBytes))
    }

    /// Marks `lease` done if this replica still holds it (a later holder's lease is left alone):
    /// for one more second, replicas that find it know the fetch has ended and read its answer
    /// at once instead of waiting for an announcement they may have just missed.
    func releaseLease(_ lease: [UInt8], repository: String) async {
        let script = """
            if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('SET', KEYS[1], 'done', 'PX', 1000) end return 0
            """
        _ = await run(
            [RedisCommand(parts: [Array("EVAL".utf8), Array(script.utf8), Array("1".utf8), lease, Array(replicaID.utf8)])],
            operation: "lease")
    }

    /// The pattern matching every entry of `repository` (for a purge of all).
    func entryPattern(repository: String) -> String {
        "\(settings.prefix)e:\(repository):*"
    }

    /// The `XADD` announcing `message`, capped at about ``RedisSettings/streamMaxLength`` entries.
    func announcement(_ message: InvalidationMessage) -> RedisCommand {
        RedisCommand(
            parts: [
                Array("XADD".utf8), Array(streamKey.utf8), Array("MAXLEN".utf8), Array("~".utf8),
                Array(String(settings.streamMaxLength).utf8), Array("*".utf8),
            ] + message.fields)
    }

    /// Runs `commands` in one round trip; on failure records it (logging the start of a failing
    /// spell) and returns `nil`, so the caller falls back to the local levels.
    func run(_ commands: [RedisCommand], operation: String) async -> [RESPValue]? {
        do {
            let replies = try await client.pipeline(commands)
            if health.recordSuccess() { logger.log(.info, "shared_cache_recovered", [:]) }
            return replies
        } catch {
            if health.recordFailure(error) {
                logger.log(
                    .warning, "shared_cache_degraded",
                    ["operation": .string(operation), "error": .string(error.code), "message": .string(error.message)])
            }
            return nil
        }
    }

    /// Sets what the stream reader applies to `repository`'s messages (replacing an earlier one
    /// after a reload).
    func register(_ repository: String, target: SharedCacheTarget) {
        targets.withLock { $0[repository] = target }
    }

    /// Forgets a repository removed by a reload.
    func forget(_ repository: String) {
        _ = targets.withLock { $0.removeValue(forKey: repository) }
    }

    /// Starts reading the invalidation stream (once).
    public func start() {
        reader.withLock { reader in
            guard reader == nil else { return }
            reader = Task { [self] in await listen() }
        }
    }

    /// Stops reading the stream.
    public func stop() {
        reader.withLock { reader in
            reader?.cancel()
            reader = nil
        }
    }

    private static func hex(_ bytes: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }
    }
}
