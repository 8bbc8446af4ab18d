import Foundation
import Gateway
import Testing

struct ConfigurationTests {
    /// A small valid configuration as a JSON object, changed per test.
    static func base() -> [String: Any] {
        [
            "services": ["demo": ["baseURL": "http://127.0.0.1:9000"]],
            "repositories": [
                "weather": ["route": "/weather/{city}", "service": "demo", "warmUp": ["/weather/london"]]
            ],
        ]
    }

    static func load(_ object: [String: Any], environment: [String: String] = [:]) throws -> GatewayConfiguration {
        let data = try JSONSerialization.data(withJSONObject: object)
        return try ConfigurationLoader(environment: environment).load(data: data, file: "test.json")
    }

    /// The error loading `object` throws.
    static func error(_ object: [String: Any], environment: [String: String] = [:]) throws -> ConfigurationError {
        let data = try JSONSerialization.data(withJSONObject: object)
        do {
            _ = try ConfigurationLoader(environment: environment).load(data: data, file: "test.json")
        } catch {
            return error
        }
        Issue.record("expected a configuration error")
        return ConfigurationError(file: "", keyPath: "", problem: "")
    }

    static func withRepository(_ changes: [String: Any], name: String = "weather") -> [String: Any] {
        var object = base()
        var repositories = object["repositories"] as? [String: Any] ?? [:]
        var repository = repositories["weather"] as? [String: Any] ?? [:]
        repository.merge(changes) { $1 }
        repositories[name] = repository
        object["repositories"] = repositories
        return object
    }

    @Test func load_AppliesDefaults_WhenKeysAreMissing() throws {
        let configuration = try Self.load(Self.base())
        #expect(configuration.server == ServerSettings())
        let weather = try #require(configuration.repositories["weather"])
        #expect(weather.upstreamPath == "/weather/{city}")
        #expect(weather.methods == ["GET", "HEAD"])
        #expect(weather.policy == .cacheFirst)
        #expect(weather.cacheKey.query == .all)
        #expect(!weather.isReadWrite)
    }

    @Test func load_ReadsTheShippedFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let loader = ConfigurationLoader(environment: ["UPSTREAM_URL": "http://127.0.0.1:3000", "HOME": "/home/me"])
        let gateway = try loader.load(file: root.appendingPathComponent("Config/gateway.json").path)
        #expect(gateway.services["demo"]?.baseURL == ServiceSettings.embeddedDemo)
        #expect(gateway.cache.disk?.path.hasPrefix("/home/me/.cache/rds-gateway/gateway-") == true)
        #expect(gateway.repositories["notes"]?.isReadWrite == true)
        let proxy = try loader.load(file: root.appendingPathComponent("Config/examples/proxy.json").path)
        #expect(proxy.services["upstream"]?.baseURL == "http://127.0.0.1:3000")
        #expect(proxy.repositories["api"]?.upstreamPath == "/{path...}")
        #expect(proxy.repositories["api"]?.upstreamErrors == .passthrough)
        #expect(proxy.repositories["api"]?.forwardHeaders.first == "*")
        #expect(gateway.repositories["weather"]?.upstreamErrors == .problem)
    }

    /// The caching keys of issue 9: `forwardHeaders: "*"`, `upstreamErrors`, the targeted field,
    /// heuristic freshness; bad values name their key path.
    @Test func load_ReadsCachingKeys_AndRejectsBadOnes() throws {
        let all = try Self.load(Self.withRepository(["forwardHeaders": "*", "upstreamErrors": "passthrough"]))
        #expect(all.repositories["weather"]?.forwardHeaders == ["*"])
        #expect(all.repositories["weather"]?.upstreamErrors == .passthrough)
        #expect(
            try Self.error(Self.withRepository(["forwardHeaders": "all"])).keyPath.hasPrefix("repositories.weather"))
        #expect(
            try Self.error(Self.withRepository(["upstreamErrors": "ignore"])).keyPath.hasPrefix("repositories.weather"))
        #expect(
            try Self.error(Self.withRepository(["targetedCacheControl": "CDN Cache"])).keyPath
                == "repositories.weather.targetedCacheControl")
        #expect(
            try Self.error(Self.withRepository(["heuristicFraction": 2])).keyPath
                == "repositories.weather.heuristicFraction")
    }

    @Test func load_InterpolatesEnvironment_WithDefaults() throws {
        var object = Self.base()
        object["server"] = ["adminToken": "${TOKEN}", "host": "${HOST:-0.0.0.0}"]
        let configuration = try Self.load(object, environment: ["TOKEN": "s3cret"])
        #expect(configuration.server.adminToken == "s3cret")
        #expect(configuration.server.host == "0.0.0.0")
    }

    @Test func load_Throws_WhenEnvironmentVariableUnset() throws {
        var object = Self.base()
        object["services"] = ["demo": ["baseURL": "${UPSTREAM_URL}"]]
        let error = try Self.error(object)
        #expect(error.keyPath == "services.demo.baseURL")
        #expect(error.description.hasPrefix("test.json: services.demo.baseURL: the environment variable UPSTREAM_URL"))
    }

    @Test func load_AppliesHostAndPortOverrides() throws {
        let configuration = try Self.load(Self.base(), environment: ["RDS_HOST": "::1", "RDS_PORT": "9090"])
        #expect(configuration.server.host == "::1")
        #expect(configuration.server.port == 9090)
        let error = try Self.error(Self.base(), environment: ["RDS_PORT": "eighty"])
        #expect(error.keyPath == "RDS_PORT")
    }

    @Test func load_Throws_WhenKeyIsUnknown() throws {
        let error = try Self.error(Self.withRepository(["polcy": "cache-first"]))
        #expect(error.keyPath == "repositories.weather.polcy")
        #expect(error.problem.hasPrefix("unknown key; expected one of: route, service, upstreamPath"))
        var object = Self.base()
        object["server"] = ["limits": ["maxHeaders": 3]]
        #expect(try Self.error(object).keyPath == "server.limits.maxHeaders")
    }

    @Test func load_Throws_WhenServiceIsMissing() throws {
        let error = try Self.error(Self.withRepository(["service": "wether"]))
        #expect(
            error.description
                == #"test.json: repositories.weather.service: no service named "wether"; expected one of: demo"#)
    }

    @Test func load_Throws_WhenRequiredKeyIsMissing() throws {
        var object = Self.base()
        object["repositories"] = ["weather": ["route": "/weather/{city}"]]
        let error = try Self.error(object)
        #expect(error.keyPath == "repositories.weather.service")
        #expect(error.problem == "missing (required)")
    }

    @Test func load_Throws_WhenRoutesCollide() throws {
        var object = Self.withRepository(["route": "/weather/{place}", "warmUp": []], name: "forecast")
        let error = try Self.error(object)
        #expect(error.keyPath == "repositories.weather.route")
        #expect(error.problem.contains("collides with repositories.forecast.route (/weather/{place})"))
        object = Self.withRepository(["route": "/{section}", "upstreamPath": "/x", "warmUp": []])
        #expect(try Self.error(object).problem.contains("collides with the gateway's own /health"))
        object = Self.withRepository(["route": "/admin/{path...}", "upstreamPath": "/x", "warmUp": []])
        #expect(try Self.error(object).problem.contains("collides with the gateway's own /admin/{rest...}"))
        object = Self.withRepository(["route": "/metrics", "upstreamPath": "/x", "warmUp": []])
        #expect(try Self.error(object).problem.contains("collides with the gateway's own /metrics"))
    }

    @Test func load_Throws_WhenTemplatesAreBad() throws {
        var error = try Self.error(Self.withRepository(["route": "/weather/{city"]))
        #expect(error.keyPath == "repositories.weather.route")
        #expect(error.problem.hasPrefix("bad route template \"/weather/{city\""))
        error = try Self.error(Self.withRepository(["upstreamPath": "/w/{town}"]))
        #expect(error.keyPath == "repositories.weather.upstreamPath")
        error = try Self.error(Self.withRepository(["warmUp": ["/forecast/london"]]))
        #expect(error.keyPath == "repositories.weather.warmUp[0]")
    }

    @Test(arguments: [
        "ftp://host", "localhost:8080", "http://", "http://host/x?y=1", "http://user:pw@host", "http://:s3cret@",
    ])
    func load_Throws_WhenBaseURLIsBad(url: String) throws {
        var object = Self.base()
        object["services"] = ["demo": ["baseURL": url]]
        let error = try Self.error(object)
        #expect(error.keyPath == "services.demo.baseURL")
        #expect(error.problem.hasPrefix("expected http://host[:port][/prefix]"))
        #expect(!error.description.contains("s3cret"))
    }

    @Test func load_Throws_WhenNumbersAreBad() throws {
        var object = Self.base()
        object["server"] = ["port": 70000]
        #expect(try Self.error(object).keyPath == "server.port")
        object["server"] = ["port": "eighty"]
        let mismatch = try Self.error(object)
        #expect(mismatch.keyPath == "server.port")
        #expect(mismatch.problem == "expected an integer, found a string")
        #expect(try Self.error(Self.withRepository(["minTTL": -1])).keyPath == "repositories.weather.minTTL")
        #expect(
            try Self.error(Self.withRepository(["minTTL": 100, "maxTTL": 10])).keyPath == "repositories.weather.maxTTL")
        #expect(
            try Self.error(Self.withRepository(["defaultTTL": 999_999])).keyPath == "repositories.weather.defaultTTL")
        #expect(
            try Self.error(Self.withRepository(["refreshAhead": 1.5])).keyPath == "repositories.weather.refreshAhead")
        var timeouts = Self.base()
        timeouts["services"] = ["demo": ["baseURL": "http://h", "timeouts": ["connect": 0]]]
        #expect(try Self.error(timeouts).keyPath == "services.demo.timeouts.connect")
    }

    @Test func load_Throws_WhenMethodsOrHeadersAreBad() throws {
        #expect(
            try Self.error(Self.withRepository(["methods": ["GET", "FETCH"]])).keyPath
                == "repositories.weather.methods[1]")
        #expect(try Self.error(Self.withRepository(["methods": ["PUT"]])).keyPath == "repositories.weather.methods")
        let hop = try Self.error(Self.withRepository(["forwardHeaders": ["Accept", "Connection"]]))
        #expect(hop.keyPath == "repositories.weather.forwardHeaders[1]")
        #expect(try Self.error(Self.withRepository(["policy": "cache-last"])).keyPath == "repositories.weather.policy")
        #expect(
            try Self.error(Self.withRepository(["cacheKey": ["query": "all"]])).keyPath
                == "repositories.weather.cacheKey.query")
    }

    @Test func load_Throws_WhenAPIKeyIsAmbiguous() throws {
        var object = Self.base()
        object["services"] = [
            "demo": ["baseURL": "http://h", "apiKey": ["env": "K", "file": "/k", "header": "X-Key"]]
        ]
        #expect(
            try Self.error(object).description
                == #"test.json: services.demo.apiKey: expected exactly one of "env" or "file""#)
        object["services"] = ["demo": ["baseURL": "http://h", "apiKey": ["env": "K"]]]
        #expect(try Self.error(object).problem == #"expected exactly one of "header" or "query""#)
        object["services"] = ["demo": ["baseURL": "http://h", "apiKey": ["env": "K", "query": "appid"]]]
        #expect(try Self.load(object).services["demo"]?.apiKey == APIKeySettings(env: "K", query: "appid"))
    }

    @Test func load_Throws_WhenFileIsMissingOrNotJSON() throws {
        let missing = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("rds-missing-\(UUID()).json")
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader(environment: [:]).load(file: missing.path) }
        do {
            _ = try ConfigurationLoader(environment: [:]).load(data: Data("{\"server\": ".utf8), file: "broken.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.file == "broken.json")
            #expect(error.problem.hasPrefix("is not valid JSON"))
        }
    }
}
