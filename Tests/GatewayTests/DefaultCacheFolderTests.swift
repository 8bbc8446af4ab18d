import Foundation
import Testing

@testable import Gateway

/// Two gateways on one host get their own disk folders unless their configurations name one.
struct DefaultCacheFolderTests {
    static let root = EndToEndCommandTests.root

    /// Writes `text` as `name` in a new temporary folder; the caller removes the folder.
    static func configFile(named name: String, _ text: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rds-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    static func diskPath(_ file: URL, _ environment: [String: String] = ["HOME": "/home/me"]) throws -> String? {
        try ConfigurationLoader(environment: environment).load(file: file.path).cache.disk?.path
    }

    @Test func twoCopiesOfTheShippedConfig_GetDistinctFolders_UnderTheUsersCache() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("Config/gateway.json"), encoding: .utf8)
        let first = try Self.configFile(named: "gateway.json", text)
        let second = try Self.configFile(named: "gateway.json", text)
        defer {
            for file in [first, second] { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        }
        let firstPath = try #require(try Self.diskPath(first))
        let secondPath = try #require(try Self.diskPath(second))
        #expect(firstPath != secondPath)
        #expect(firstPath.hasPrefix("/home/me/.cache/rds-gateway/gateway-"))
        #expect(secondPath.hasPrefix("/home/me/.cache/rds-gateway/gateway-"))
        #expect(try Self.diskPath(first) == firstPath)  // the same file keeps its folder (restart, reload)
        let proxy = try #require(
            try Self.diskPath(
                Self.root.appendingPathComponent("Config/examples/proxy.json"),
                ["HOME": "/home/me", "UPSTREAM_URL": "http://127.0.0.1:1"]))
        #expect(proxy.hasPrefix("/home/me/.cache/rds-gateway/proxy-"))
    }

    @Test func rdsCacheDir_AndAnExplicitPath_AreKept() throws {
        let shipped = Self.root.appendingPathComponent("Config/gateway.json")
        #expect(try Self.diskPath(shipped, ["RDS_CACHE_DIR": "/var/cache/rds-gateway"]) == "/var/cache/rds-gateway")
        let explicit = try Self.configFile(
            named: "a.json",
            #"{"cache": {"disk": {"path": "/srv/shared"}}, "services": {"d": {"baseURL": "embedded:demo"}}, "repositories": {"a": {"route": "/a", "service": "d"}}}"#
        )
        defer { try? FileManager.default.removeItem(at: explicit.deletingLastPathComponent()) }
        #expect(try Self.diskPath(explicit) == "/srv/shared")
    }

    @Test func aDiskSectionWithoutPath_GetsTheDefaultFolder() throws {
        let file = try Self.configFile(
            named: "orders.json",
            #"{"cache": {"disk": {"maxBytes": 1048576}}, "services": {"d": {"baseURL": "embedded:demo"}}, "repositories": {"a": {"route": "/a", "service": "d"}}}"#
        )
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let path = try #require(try Self.diskPath(file, ["XDG_CACHE_HOME": "/xdg"]))
        #expect(path == "/xdg/rds-gateway/" + DefaultCacheFolder.name(ofConfiguration: file.path))
    }

    @Test(arguments: [
        (["XDG_CACHE_HOME": "/xdg", "HOME": "/home/me"], "/xdg/rds-gateway/built-in"),
        (["XDG_CACHE_HOME": "relative", "HOME": "/home/me"], "/home/me/.cache/rds-gateway/built-in"),
        (["HOME": "/home/me"], "/home/me/.cache/rds-gateway/built-in"),
        ([:], "/tmp/rds-gateway-\(getuid())/built-in"),
    ] as [([String: String], String)])
    func theBase_IsXDGCacheHome_ThenHome_ThenAPerUserTemporaryFolder(environment: [String: String], expected: String) {
        #expect(DefaultCacheFolder.path(forConfiguration: DefaultConfiguration.name, environment: environment) == expected)
    }

    @Test func theName_IsTheFileStemAndAHashOfItsAbsolutePath() {
        let name = DefaultCacheFolder.name(ofConfiguration: "/etc/rds/my gateway.json")
        #expect(name.hasPrefix("my_gateway-"))
        #expect(name.count == "my_gateway-".count + 8)
        #expect(name != DefaultCacheFolder.name(ofConfiguration: "/etc/other/my gateway.json"))
        #expect(name == DefaultCacheFolder.name(ofConfiguration: "/etc/rds/../rds/my gateway.json"))
    }
}
