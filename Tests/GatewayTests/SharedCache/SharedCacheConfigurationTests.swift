import Foundation
import RDSTesting
import Testing

@testable import Gateway

/// `cache.shared.redis`: what it accepts, and errors that name the file, the key and what was expected.
struct SharedCacheConfigurationTests {
    private static func file(_ redis: String) -> String {
        """
        {"cache": {"shared": {"redis": \(redis)}},
         "services": {"demo": {"baseURL": "http://127.0.0.1:9000"}},
         "repositories": {"weather": {"route": "/weather/{city}", "service": "demo"}}}
        """
    }

    @Test func load_ReadsEverySetting() throws {
        let configuration = try ConfigurationLoader(environment: [:]).load(
            data: Data(
                Self.file(
                    #"{"url": "redis://cache:6380/2", "prefix": "gw:", "username": "gateway", "password": {"env": "REDIS_PASSWORD"}, "connectTimeout": 1, "commandTimeout": 0.05, "poolSize": 3, "streamMaxLength": 500, "lease": 2}"#
                ).utf8), file: "test.json")
        let redis = try #require(configuration.cache.shared?.redis)
        #expect(
            redis
                == RedisSettings(
                    url: "redis://cache:6380/2", prefix: "gw:", username: "gateway",
                    password: .environment("REDIS_PASSWORD"), connectTimeout: 1, commandTimeout: 0.05, poolSize: 3,
                    streamMaxLength: 500, lease: 2))
    }

    @Test(arguments: [
        (#"{"url": "http://cache"}"#, "cache.shared.redis.url", "redis:// or unix://"),
        (#"{"url": "redis://u:pw@cache"}"#, "cache.shared.redis.url", "no password in the URL"),
        (#"{"url": "redis://cache", "prefix": ""}"#, "cache.shared.redis.prefix", "1 to 64 characters"),
        (#"{"url": "redis://cache", "commandTimeout": 0}"#, "cache.shared.redis.commandTimeout", "above 0"),
        (#"{"url": "redis://cache", "poolSize": 0}"#, "cache.shared.redis.poolSize", "from 1 to 64"),
        (#"{"url": "redis://cache", "streamMaxLength": 5}"#, "cache.shared.redis.streamMaxLength", "from 100"),
        (#"{"url": "redis://cache", "password": "inline"}"#, "cache.shared.redis.password", "never written inline"),
        (#"{"url": "redis://cache", "tls": true}"#, "cache.shared.redis", "tls"),
    ])
    func load_NamesFileKeyAndExpectation(redis: String, keyPath: String, expected: String) throws {
        let error = try #require(ConfigurationRangeTests.error(Self.file(redis)))
        #expect(error.file == "test.json")
        #expect(error.keyPath.hasPrefix(keyPath), "\(error)")
        #expect(error.description.contains(expected), "\(error)")
        #expect(!error.description.contains("inline\""))
        #expect(!error.description.contains(":pw@"))
    }

    @Test func sharedCache_NamesThePasswordSource_WhenItCannotBeRead() {
        do {
            _ = try SharedCache(
                settings: RedisSettings(url: "redis://cache", password: .environment("NO_SUCH_VARIABLE")),
                logger: RecordingLogger(), environment: [:])
            Issue.record("accepted a missing password")
        } catch {
            #expect(error.keyPath == "cache.shared.redis.password")
            #expect(error.problem.contains("environment variable NO_SUCH_VARIABLE"))
        }
    }
}
