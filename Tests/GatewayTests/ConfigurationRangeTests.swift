import Foundation
import RDSTesting
import Testing

@testable import Gateway

/// Ranges, duplicate keys and number types: values that once passed `--check-config` and then
/// trapped at start-up or on the first request.
struct ConfigurationRangeTests {
    /// The error loading the JSON `text` throws.
    static func error(_ text: String) -> ConfigurationError? {
        do {
            _ = try ConfigurationLoader(environment: [:]).load(data: Data(text.utf8), file: "test.json")
        } catch {
            return error
        }
        return nil
    }

    /// A valid file with `server`, `service` and `repository` members spliced in.
    static func file(server: String = "{}", service: String = "", repository: String = "") -> String {
        """
        {"server": \(server),
         "services": {"demo": {"baseURL": "http://127.0.0.1:9000"\(service)}},
         "repositories": {"weather": {"route": "/weather/{city}", "service": "demo"\(repository)}}}
        """
    }

    @Test(arguments: [
        (file(service: #", "timeouts": {"total": 1e10}"#), "services.demo.timeouts.total"),
        (file(service: #", "timeouts": {"connect": 0}"#), "services.demo.timeouts.connect"),
        (file(service: #", "timeouts": {"firstByte": 86401}"#), "services.demo.timeouts.firstByte"),
        (file(server: #"{"timeouts": {"idle": 1e19}}"#), "server.timeouts.idle"),
        (file(server: #"{"timeouts": {"request": 1e19}}"#), "server.timeouts.request"),
        (file(server: #"{"timeouts": {"shutdownGrace": 1e19}}"#), "server.timeouts.shutdownGrace"),
        (file(server: #"{"limits": {"maxConnections": 0}}"#), "server.limits.maxConnections"),
        (file(server: #"{"limits": {"maxHeaderBytes": 100000000}}"#), "server.limits.maxHeaderBytes"),
        (file(server: #"{"limits": {"maxBodyBytes": 4294967296}}"#), "server.limits.maxBodyBytes"),
        (file(repository: #", "staleIfError": 1e12"#), "repositories.weather.staleIfError"),
        (file(repository: #", "fetchDeadline": 100000"#), "repositories.weather.fetchDeadline"),
        (file(repository: #", "writes": {"idempotencyRetention": 0}"#), "repositories.weather.writes.idempotencyRetention"),
        (file(repository: #", "writes": {"maxIdempotencyKeys": 0}"#), "repositories.weather.writes.maxIdempotencyKeys"),
        (file(repository: #", "maxTTL": 1e300"#), "repositories.weather.maxTTL"),
    ])
    func load_Throws_WhenValueIsOutOfRange(text: String, keyPath: String) throws {
        let error = try #require(Self.error(text))
        #expect(error.keyPath == keyPath)
        #expect(error.description.hasPrefix("test.json: \(keyPath): expected "))
        #expect(error.problem.contains("found "))
    }

    @Test func load_NamesTheRange_WhenATimeoutIsHuge() throws {
        let server = try #require(Self.error(Self.file(server: #"{"timeouts": {"idle": 1e19}}"#)))
        #expect(server.problem == "expected a number above 0 and at most 86400, found 1e+19")
        let service = try #require(Self.error(Self.file(service: #", "timeouts": {"total": 1e10}"#)))
        #expect(service.problem == "expected a number above 0 and at most 86400, found 10000000000")
    }

    @Test func load_Throws_WhenCacheBoundIsOutOfRange() throws {
        let text = Self.file().replacingOccurrences(
            of: #"{"server": {},"#, with: #"{"cache": {"memory": {"maxEntries": 0}},"#)
        let error = try #require(Self.error(text))
        #expect(error.keyPath == "cache.memory.maxEntries")
        #expect(error.problem == "expected an integer from 1 to 100000000, found 0")
    }

    @Test func load_Throws_WhenARepositoryNameAppearsTwice() throws {
        let text = """
            {"services": {"demo": {"baseURL": "http://127.0.0.1:9000"}},
             "repositories": {
               "weather": {"route": "/weather/{city}", "service": "demo"},
               "weather": {"route": "/other/{city}", "service": "demo"}}}
            """
        let error = try #require(Self.error(text))
        #expect(error.keyPath == "repositories.weather")
        #expect(error.description == "test.json: repositories.weather: appears twice in the same object; expected each key once")
    }

    @Test func load_Throws_WhenANestedKeyAppearsTwice() throws {
        let error = try #require(
            Self.error(Self.file(service: #", "headers": {"X-A": "1", "X-\u0041": "2"}"#)))
        #expect(error.keyPath == "services.demo.headers.X-A")
    }

    @Test func duplicateKeyScanner_NamesPathsInsideArrays_AndIgnoresStrings() {
        let text = #"{"a": [{"b": 1}, {"c": "\"c\": {", "b": [1, {"d": 2, "d": 3}]}]}"#
        #expect(DuplicateKeyScanner.firstDuplicate(in: Data(text.utf8)) == ["a", "[1]", "b", "[1]", "d"])
        #expect(DuplicateKeyScanner.firstDuplicate(in: Data(#"{"a": {"x": 1}, "b": {"x": 1}}"#.utf8)) == nil)
        #expect(DuplicateKeyScanner.firstDuplicate(in: Data(#"{"a\\": 1, "a": 2}"#.utf8)) == nil)
    }

    @Test func load_NamesTheKeyPath_WhenAFloatIsGivenForAnInteger() throws {
        let error = try #require(Self.error(Self.file(server: #"{"port": 8080.5}"#)))
        #expect(error.description == "test.json: server.port: expected an integer, found 8080.5")
        let limits = try #require(Self.error(Self.file(server: #"{"limits": {"maxConnections": "many"}}"#)))
        #expect(limits.description == "test.json: server.limits.maxConnections: expected an integer, found a string")
    }

    @Test func load_NamesTheKeyPath_WhenAStringIsGivenForANumber() throws {
        let error = try #require(Self.error(Self.file(service: #", "timeouts": {"total": "30"}"#)))
        #expect(error.description == "test.json: services.demo.timeouts.total: expected a number, found a string")
    }

    @Test func load_AcceptsWholeNumbersWrittenWithAnExponent() throws {
        let configuration = try ConfigurationLoader(environment: [:])
            .load(data: Data(Self.file(server: #"{"port": 8.08e3}"#).utf8), file: "test.json")
        #expect(configuration.server.port == 8080)
    }

    @Test func checkConfig_ExitsOne_NamingTheKeyPath() async throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("rds-gateway")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rds-range-\(UUID()).json")
        try Data(Self.file(service: #", "timeouts": {"total": 1e10}"#).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let child = try ChildProcess(
            executable: binary.path, arguments: ["--check-config", file.path], environment: ["PATH": "/usr/bin:/bin"])
        var output: [UInt8] = []
        for await chunk in child.standardError { output += chunk }
        #expect(await child.exitStatus() == 1)
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.contains("\(file.path): services.demo.timeouts.total: expected a number above 0 and at most 86400"))
    }
}
