import Foundation
import RDS
import Testing

@testable import Gateway

/// `refresh`, `hook` and `tags` of a repository: what loads, and what is refused with its key path.
struct ConfigurationLiveTests {
    private static func file(_ repository: String) -> String {
        ConfigurationRangeTests.file(repository: repository)
    }

    @Test(arguments: [
        (#", "refresh": {"keys": []}"#, "repositories.weather.refresh.keys"),
        (#", "refresh": {"keys": ["sometimes"]}"#, "repositories.weather.refresh.keys[0]"),
        (#", "refresh": {"keys": ["recent"], "beforeExpiry": 1}"#, "repositories.weather.refresh.beforeExpiry"),
        (#", "refresh": {"keys": ["recent"], "jitter": 0.9}"#, "repositories.weather.refresh.jitter"),
        (#", "refresh": {"keys": ["recent"], "interval": 0}"#, "repositories.weather.refresh.interval"),
        (#", "refresh": {"keys": ["recent"], "concurrency": 0}"#, "repositories.weather.refresh.concurrency"),
        (#", "hook": {"secret": {"env": "X"}, "window": 0}"#, "repositories.weather.hook.window"),
        (#", "tags": {"field": "bad field"}"#, "repositories.weather.tags.field"),
        (#", "tags": {"maxEntries": 0}"#, "repositories.weather.tags.maxEntries"),
    ])
    func load_Throws_ForABadLiveSetting(repository: String, keyPath: String) throws {
        let error = try #require(ConfigurationRangeTests.error(Self.file(repository)))
        #expect(error.keyPath == keyPath)
    }

    @Test func changesStream_MustBeAnHTTPURL() throws {
        let text = ConfigurationRangeTests.file(service: #", "changes": {"url": "ftp://example.com/events"}"#)
        let error = try #require(ConfigurationRangeTests.error(text))
        #expect(error.keyPath == "services.demo.changes.url")
    }

    @Test func inlineHookSecret_IsRefusedWithoutQuotingIt() throws {
        let error = try #require(ConfigurationRangeTests.error(Self.file(#", "hook": {"secret": "hunter2"}"#)))
        #expect(error.keyPath == "repositories.weather.hook.secret")
        #expect(!error.description.contains("hunter2"))
    }

    @Test func refreshSettings_BecomeTheRDSPolicy() throws {
        let text = Self.file(
            #", "refresh": {"keys": ["subscribed", "warm-up"], "interval": 30, "concurrency": 2}, "tags": {"field": "Cache-Tag", "expose": true}"#)
        let configuration = try ConfigurationLoader(environment: [:]).load(data: Data(text.utf8), file: "test.json")
        let settings = try #require(configuration.repositories["weather"])
        let policy = try #require(settings.refresh?.policy)
        #expect(policy.keys == [.subscribed, .warmUp])
        #expect(policy.interval == 30)
        #expect(policy.beforeExpiry == nil)
        #expect(settings.refresh?.concurrency == 2)
        #expect(settings.hiddenTagField == nil)
        #expect(RepositorySettings(route: "/a", service: "s").hiddenTagField == "Surrogate-Key")
    }
}
