import Foundation
import Glibc
import HTTP1
import RDSTesting
import Testing

/// The built binary with OAuth2 and an API key: no secret and no token appears in anything the
/// process writes (its log) or answers (bodies and headers of every endpoint), nor in
/// `--check-config` output, through success, a 401, a refused client and an invalid config.
@Suite(.timeLimit(.minutes(1)))
struct OAuth2SecretsProcessTests {
    static let clientSecret = "cs-Secret-8q2Lz"
    static let apiKey = "ak-Secret-5mWt1"
    /// What must never show: the secrets, and every token the endpoint issues (`tok-N`).
    static let forbidden = [clientSecret, apiKey, "tok-"]

    static func writeConfig(upstream: String, tokenURL: String, folder: URL) throws -> URL {
        let text = """
            {"services": {"up": {"baseURL": "\(upstream)",
                                 "apiKey": {"env": "PROC_API_KEY", "header": "X-API-Key"},
                                 "auth": {"oauth2": {"tokenURL": "\(tokenURL)", "clientId": "gateway",
                                                     "clientSecret": {"env": "PROC_CLIENT_SECRET"}}}}},
             "repositories": {"items": {"route": "/items/{id}", "service": "up"}}}
            """
        let file = folder.appendingPathComponent("gateway.json")
        try Data(text.utf8).write(to: file)
        return file
    }

    @Test func nothingTheProcessWritesOrAnswers_HoldsASecretOrAToken() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rds-oauth2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let endpoint = try await OAuth2TokenEndpoint.start(clientSecret: Self.clientSecret, clock: ManualClock())
        let upstream = try await EndToEndUpstream.start()
        for id in ["1", "2"] {
            upstream.on("/items/\(id)") { request, _ in
                endpoint.accepts(request.headers["Authorization"]) && request.headers["X-API-Key"] == Self.apiKey
                    ? EndToEndUpstream.Reply(body: #"{"id":"\#(id)"}"#) : EndToEndUpstream.Reply(status: 401)
            }
        }
        let config = try Self.writeConfig(upstream: upstream.baseURL, tokenURL: endpoint.tokenURL, folder: folder)
        let gateway = try await GatewayProcess(
            config: config, environment: ["PROC_CLIENT_SECRET": Self.clientSecret, "PROC_API_KEY": Self.apiKey])
        var answers: [String] = []
        func get(_ target: String) async throws -> HTTPResponse {
            let response = try await EndToEndClient.send(.get, target, port: gateway.port)
            answers.append(response.headers.fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n"))
            answers.append(response.text)
            return response
        }
        await endpoint.waitForRequests(1)
        #expect(try await get("/items/1").status == 200)
        // The client is refused from now on, and the upstream rejects the token it holds.
        endpoint.setClientSecret("another-secret")
        endpoint.revokeAll()
        #expect(try await get("/items/2").status == 503)
        for target in [
            "/health/ready", "/metrics", "/admin/", "/admin/errors", "/admin/repositories",
            "/admin/repositories/items/state?path=/items/1",
            "/admin/repositories/items/state?path=/items/2",
        ] {
            _ = try await get(target)
        }
        gateway.send(SIGTERM)
        _ = await gateway.exitStatus()
        await upstream.stop()
        await endpoint.stop()

        let log = gateway.output
        #expect(log.contains(#""event":"token_request_failed""#))
        #expect(answers.joined().contains("invalid_client"))
        for secret in Self.forbidden {
            #expect(!log.contains(secret), "the log holds \(secret)")
            #expect(!answers.joined().contains(secret), "an answer holds \(secret)")
        }
    }

    @Test func checkConfig_NamesAnInlineSecret_WithoutPrintingIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rds-oauth2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("inline.json")
        let text = """
            {"services": {"up": {"baseURL": "http://127.0.0.1:9",
                                 "auth": {"oauth2": {"tokenURL": "http://127.0.0.1:9/token", "clientId": "gateway",
                                                     "clientSecret": "\(Self.clientSecret)"}}}},
             "repositories": {"items": {"route": "/items/{id}", "service": "up"}}}
            """
        try Data(text.utf8).write(to: file)
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("rds-gateway")
        let process = try ChildProcess(
            executable: binary.path, arguments: ["--check-config", file.path], environment: ["PATH": "/usr/bin:/bin"])
        var output: [UInt8] = []
        for await chunk in process.standardError { output += chunk }
        #expect(await process.exitStatus() == 1)
        let printed = String(decoding: output, as: UTF8.self)
        #expect(printed.contains("\(file.path): services.up.auth.oauth2.clientSecret: expected {\"env\""))
        #expect(!printed.contains(Self.clientSecret))
    }
}
