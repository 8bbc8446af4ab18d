import Testing

@testable import Redis

/// `redis://` and `unix://` URLs, credentials, and the refusals that name what is wrong.
struct RedisConfigurationTests {
    @Test func redisURL_ReadsHostPortDatabaseAndCredentials() throws {
        let configuration = try RedisConfiguration(url: "redis://gateway:p%40ss@cache.internal:6380/3")
        #expect(configuration.endpoint == .tcp(host: "cache.internal", port: 6380))
        #expect(configuration.database == 3)
        #expect(configuration.username == "gateway")
        #expect(configuration.password == "p@ss")
    }

    @Test func redisURL_DefaultsToPort6379_DatabaseZero_NoCredentials() throws {
        let configuration = try RedisConfiguration(url: "redis://127.0.0.1")
        #expect(configuration.endpoint == .tcp(host: "127.0.0.1", port: 6379))
        #expect(configuration.database == 0)
        #expect(configuration.username == nil && configuration.password == nil)
    }

    @Test func explicitCredentials_OverrideTheURLs() throws {
        let configuration = try RedisConfiguration(url: "redis://a:b@h", username: "u", password: "p")
        #expect(configuration.username == "u" && configuration.password == "p")
    }

    @Test func unixURL_ReadsPathAndDatabase() throws {
        let configuration = try RedisConfiguration(url: "unix:///run/redis/redis.sock?db=2")
        #expect(configuration.endpoint == .unix(path: "/run/redis/redis.sock"))
        #expect(configuration.database == 2)
        #expect(configuration.endpoint.description == "unix:/run/redis/redis.sock")
    }

    @Test(arguments: [
        ("rediss://h", "TLS"), ("http://h", "redis:// or unix://"), ("redis:///0", "no host"),
        ("redis://h/x", "database number"), ("unix://relative", "absolute"), ("not a url", "not a URL"),
    ])
    func badURL_IsRefusedWithAReason(url: String, reason: String) {
        do {
            _ = try RedisConfiguration(url: url)
            Issue.record("accepted \(url)")
        } catch {
            #expect(error.kind == .configuration)
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }

    @Test func refusal_NeverShowsThePassword() {
        do {
            _ = try RedisConfiguration(url: "redis://u:hunter2@h/abc")
        } catch {
            #expect(!error.description.contains("hunter2"))
        }
    }
}
