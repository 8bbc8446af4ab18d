import Foundation
import Gateway
import HTTP1
import RDS
import Testing

struct HTTPServiceHeadersTests {
    static let secret = "s3cr3t-k3y"

    static func makeService(
        _ transport: ScriptedTransport, credential: SecretCredentialProvider? = nil,
        forwarded: HeaderAllowList = HeaderAllowList(), defaultHeaders: HTTPHeaders = [:]
    ) -> HTTPService {
        HTTPService(
            name: "weather", baseURL: URL(string: "https://api.example.com/data?format=json")!,
            defaultHeaders: defaultHeaders, credentials: credential.map { [$0] } ?? [], forwardedHeaders: forwarded,
            transport: transport)
    }

    static func keyProvider(_ placement: Credential.Placement) -> SecretCredentialProvider {
        SecretCredentialProvider(
            reader: SecretReader(
                .environment("WEATHER_KEY"), what: "API key", environment: ["WEATHER_KEY": " \(secret)\n"]),
            placement: placement)
    }

    @Test func get_PutsAPIKeyInQuery_AfterBaseAndKeyQuery() async throws {
        let transport = ScriptedTransport(status: 200)
        let apiKey = Self.keyProvider(.queryParameter("app id"))
        let key = ResourceKey(repository: "w", path: "/now", query: "q=london")
        _ = try await Self.makeService(transport, credential: apiKey).get(key, ifChangedFrom: nil)
        #expect(transport.requests.first?.target == "/data/now?format=json&q=london&app%20id=\(Self.secret)")
        #expect(transport.endpoints.first?.port == 443)
    }

    @Test func get_PutsAPIKeyInHeader_OverridingForwardedAndDefaultHeaders() async throws {
        let transport = ScriptedTransport(status: 200)
        let apiKey = Self.keyProvider(.header("X-API-Key"))
        let service = Self.makeService(
            transport, credential: apiKey, forwarded: HeaderAllowList(["X-API-Key"]),
            defaultHeaders: ["X-Api-Key": "old"])
        _ = try await service.get(ResourceKey(repository: "w", path: "/now", headers: ["x-api-key": "client"]),
                                  ifChangedFrom: nil)
        let request = try #require(transport.requests.first)
        #expect(request.headers.values(for: "X-API-Key") == [Self.secret])
        #expect(request.target == "/data/now?format=json")
    }

    @Test func errorMessages_NeverContainAPIKey_WhenCallFails() async throws {
        let apiKey = Self.keyProvider(.queryParameter("appid"))
        for transport in [
            ScriptedTransport(status: 500), ScriptedTransport(status: 503),
            ScriptedTransport(failing: TransportError(.timeout, "slow")),
        ] {
            let service = Self.makeService(transport, credential: apiKey)
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
        let apiKey = SecretCredentialProvider(
            reader: SecretReader(.environment("NOPE"), what: "API key", environment: [:]), placement: .header("X-Key"))
        let service = Self.makeService(transport, credential: apiKey)
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

    @Test func secretReader_ReadsTrimmedFile_AndRereadsAfterRotation() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apikey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("key")
        let reader = SecretReader(.file(file.path), what: "API key")
        #expect(throws: ServiceError.self) { try reader.read() }
        try Data("one\n".utf8).write(to: file)
        #expect(try reader.read() == "one")
        try Data("two".utf8).write(to: file)
        #expect(try reader.read() == "two")
        try Data("  \n".utf8).write(to: file)
        #expect(throws: ServiceError.self) { try reader.read() }
    }
}

extension HTTPServiceHeadersTests {
    static func cacheable() -> ScriptedTransport {
        ScriptedTransport(status: 200, headers: ["Cache-Control": "max-age=60"], body: "{}")
    }

    @Test func get_StoresAnswer_WhenAuthorizationIsTheServicesOwnAPIKey() async throws {
        let apiKey = Self.keyProvider(.header("Authorization"))
        let response = try await Self.makeService(Self.cacheable(), credential: apiKey)
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
