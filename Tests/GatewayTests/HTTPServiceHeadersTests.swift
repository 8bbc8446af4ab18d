import Foundation
import Gateway
import HTTP1
import RDS
import Testing

struct HTTPServiceHeadersTests {
    static let secret = "s3cr3t-k3y"

    static func makeService(
        _ transport: ScriptedTransport, apiKey: UpstreamAPIKey? = nil, forwarded: HeaderAllowList = HeaderAllowList(),
        defaultHeaders: HTTPHeaders = [:]
    ) -> HTTPService {
        HTTPService(
            name: "weather", baseURL: URL(string: "https://api.example.com/data?format=json")!,
            defaultHeaders: defaultHeaders, apiKey: apiKey, forwardedHeaders: forwarded, transport: transport)
    }

    static func keyProvider() -> EnvironmentAPIKeyProvider {
        EnvironmentAPIKeyProvider(variable: "WEATHER_KEY", environment: ["WEATHER_KEY": " \(secret)\n"])
    }

    @Test func get_PutsAPIKeyInQuery_AfterBaseAndKeyQuery() async throws {
        let transport = ScriptedTransport(status: 200)
        let apiKey = UpstreamAPIKey(provider: Self.keyProvider(), placement: .queryParameter("app id"))
        let key = ResourceKey(repository: "w", path: "/now", query: "q=london")
        _ = try await Self.makeService(transport, apiKey: apiKey).get(key, ifChangedFrom: nil)
        #expect(transport.requests.first?.target == "/data/now?format=json&q=london&app%20id=\(Self.secret)")
        #expect(transport.endpoints.first?.port == 443)
    }

    @Test func get_PutsAPIKeyInHeader_OverridingForwardedAndDefaultHeaders() async throws {
        let transport = ScriptedTransport(status: 200)
        let apiKey = UpstreamAPIKey(provider: Self.keyProvider(), placement: .header("X-API-Key"))
        let service = Self.makeService(
            transport, apiKey: apiKey, forwarded: HeaderAllowList(["X-API-Key"]), defaultHeaders: ["X-Api-Key": "old"])
        _ = try await service.get(ResourceKey(repository: "w", path: "/now", headers: ["x-api-key": "client"]),
                                  ifChangedFrom: nil)
        let request = try #require(transport.requests.first)
        #expect(request.headers.values(for: "X-API-Key") == [Self.secret])
        #expect(request.target == "/data/now?format=json")
    }

    @Test func errorMessages_NeverContainAPIKey_WhenCallFails() async throws {
        let apiKey = UpstreamAPIKey(provider: Self.keyProvider(), placement: .queryParameter("appid"))
        for transport in [
            ScriptedTransport(status: 500), ScriptedTransport(status: 503),
            ScriptedTransport(failing: TransportError(.timeout, "slow")),
        ] {
            let service = Self.makeService(transport, apiKey: apiKey)
            let error = await #expect(throws: ServiceError.self) {
                try await service.get(ResourceKey(repository: "w", path: "/now", query: "q=x"), ifChangedFrom: nil)
            }
            #expect(transport.requests.first?.target.contains(Self.secret) == true)
            let failure = try #require(error)
            let problem = ProblemDetails(error: failure, instance: nil)
            let rendered = ErrorChain(failure).links.map { "\($0)" }.joined() + String(describing: failure)
                + String(decoding: problem.jsonBytes(), as: UTF8.self)
            #expect(!rendered.contains(Self.secret))
        }
    }

    @Test func get_FailsUnavailable_NamingVariable_WhenAPIKeyIsMissing() async throws {
        let transport = ScriptedTransport(status: 200)
        let apiKey = UpstreamAPIKey(
            provider: EnvironmentAPIKeyProvider(variable: "NOPE", environment: [:]), placement: .header("X-Key"))
        let service = Self.makeService(transport, apiKey: apiKey)
        let error = await #expect(throws: ServiceError.self) {
            try await service.get(ResourceKey(repository: "w", path: "/"), ifChangedFrom: nil)
        }
        #expect(error?.kind == .unavailable)
        #expect(error?.message.contains("NOPE") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test func get_ForwardsOnlyAdmittedKeyHeaders_AfterDefaults() async throws {
        let transport = ScriptedTransport(status: 200)
        let service = Self.makeService(
            transport, forwarded: HeaderAllowList(["Accept", "Accept-Language"]),
            defaultHeaders: ["User-Agent": "rds-gateway", "Accept": "text/plain", "Connection": "close"])
        let key = ResourceKey(
            repository: "w", path: "/", headers: ["accept": "application/json", "cookie": "a=1", "x-other": "1"])
        _ = try await service.get(key, ifChangedFrom: nil)
        let request = try #require(transport.requests.first)
        #expect(request.headers.fields.map(\.name) == ["Host", "User-Agent", "accept"])
        #expect(request.headers["Accept"] == "application/json")
    }

    @Test func fileAPIKeyProvider_ReadsTrimmedKey_AndRereadsAfterRotation() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apikey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("key")
        let provider = FileAPIKeyProvider(path: file.path)
        #expect(throws: ServiceError.self) { try provider.apiKey() }
        try Data("one\n".utf8).write(to: file)
        #expect(try provider.apiKey() == "one")
        try Data("two".utf8).write(to: file)
        #expect(try provider.apiKey() == "two")
        try Data("  \n".utf8).write(to: file)
        #expect(throws: ServiceError.self) { try provider.apiKey() }
    }
}

extension HTTPServiceHeadersTests {
    static func cacheable() -> ScriptedTransport {
        ScriptedTransport(status: 200, headers: ["Cache-Control": "max-age=60"], body: "{}")
    }

    @Test func get_StoresAnswer_WhenAuthorizationIsTheServicesOwnAPIKey() async throws {
        let apiKey = UpstreamAPIKey(provider: Self.keyProvider(), placement: .header("Authorization"))
        let response = try await Self.makeService(Self.cacheable(), apiKey: apiKey)
            .get(ResourceKey(repository: "w", path: "/"), ifChangedFrom: nil)
        guard case .fetched(let fetched) = response else {
            Issue.record("expected a fetched value, got \(response)")
            return
        }
        #expect(fetched.freshness.isStorable)
    }

    @Test func get_DoesNotStoreAnswer_WhenClientAuthorizationIsForwarded() async throws {
        let transport = Self.cacheable()
        let service = Self.makeService(
            transport, forwarded: HeaderAllowList(["Authorization"], allowingCredentials: true))
        let key = ResourceKey(repository: "w", path: "/", headers: ["authorization": "Bearer user"])
        let response = try await service.get(key, ifChangedFrom: nil)
        guard case .fetched(let fetched) = response else {
            Issue.record("expected a fetched value, got \(response)")
            return
        }
        #expect(!fetched.freshness.isStorable)
        #expect(transport.requests.last?.headers["Authorization"] == "Bearer user")
    }
}
