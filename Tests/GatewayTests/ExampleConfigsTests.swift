import Foundation
import Gateway
import HTTP1
import Testing

/// The configurations in `Config/examples/` pass `--check-config`, and the real-API ones behave as
/// documented against loopback stand-ins for their upstreams (no test reaches the internet).
struct ExampleConfigsTests {
    static let folder = EndToEndCommandTests.root.appendingPathComponent("Config/examples")
    static let files: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }
        .sorted()

    @Test func theFolder_HoldsTheDocumentedExamples() {
        #expect(Set(["proxy.json", "open-meteo.json", "github.json", "cluster.json"]).isSubset(of: Set(Self.files)))
    }

    @Test(arguments: files)
    func checkConfig_ExitsZero(file: String) async {
        let path = Self.folder.appendingPathComponent(file).path
        let environment = ["UPSTREAM_URL": "http://127.0.0.1:3000", "HOME": "/home/me", "REDIS_PASSWORD": "secret"]
        #expect(await GatewayCommand.main(arguments: ["--check-config", path], environment: environment) == 0)
    }

    /// Loads an example with `environment`, on port 0 and memory-only, and starts it.
    static func start(_ file: String, environment: [String: String]) async throws -> EndToEndGateway {
        var configuration = try ConfigurationLoader(environment: environment)
            .load(file: folder.appendingPathComponent(file).path)
        configuration.server.port = 0
        configuration.cache.disk = nil
        return try await EndToEndGateway.start(configuration: configuration)
    }

    @Test func openMeteo_PointsAtTheRealHosts_AndCachesAForecastByItsParameters() async throws {
        let real = try ConfigurationLoader(environment: ["HOME": "/home/me"])
            .load(file: Self.folder.appendingPathComponent("open-meteo.json").path)
        #expect(real.services["forecast"]?.baseURL == "https://api.open-meteo.com")
        #expect(real.services["geocoding"]?.baseURL == "https://geocoding-api.open-meteo.com")
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/v1/forecast") { _, _ in EndToEndUpstream.Reply(body: #"{"current":{"temperature_2m":11.5}}"#) }
        let gateway = try await Self.start(
            "open-meteo.json", environment: ["OPEN_METEO_URL": upstream.baseURL, "HOME": "/home/me"])
        let target = "/forecast?latitude=52.52&longitude=13.41&current=temperature_2m&utm_source=x"
        let miss = try await gateway.get(target)
        #expect(miss.status == 200)
        #expect(miss.headers["X-Cache"] == "MISS")
        let sent = try #require(upstream.requests("/v1/forecast").first)
        #expect(sent.target.contains("latitude=52.52") && sent.target.contains("current=temperature_2m"))
        #expect(!sent.target.contains("utm_source"))
        gateway.clock.advance(by: 600)  // within the 900 s default: Open-Meteo sends no lifetime
        #expect(try await gateway.get(target).headers["X-Cache"] == "HIT")
        #expect(upstream.calls("/v1/forecast") == 1)
        await gateway.stop()
        await upstream.stop()
    }

    /// A GitHub stand-in: a page of issues with pagination links and an ETag, 304 when it matches.
    static func githubIssues(cacheControl: String) -> EndToEndUpstream.Responder {
        { request, _ in
            if request.headers["If-None-Match"] == #""v1""# {
                return EndToEndUpstream.Reply(status: 304, headers: ["ETag": #""v1""#, "Cache-Control": cacheControl])
            }
            return EndToEndUpstream.Reply(
                headers: [
                    "Content-Type": "application/json; charset=utf-8", "Cache-Control": cacheControl, "ETag": #""v1""#,
                    "Link": Self.link,
                ],
                body: #"[{"number":1}]"#)
        }
    }

    static let link =
        #"<https://api.github.com/repositories/1/issues?page=3&per_page=5>; rel="next", <https://api.github.com/repositories/1/issues?page=9&per_page=5>; rel="last""#

    /// `github.json` in front of a GitHub stand-in answering `path` with `cacheControl`, its token
    /// file holding the whole `Authorization` value; the caller stops both and removes the file.
    static func startGitHub(path: String, cacheControl: String) async throws
        -> (EndToEndGateway, EndToEndUpstream, token: URL)
    {
        let upstream = try await EndToEndUpstream.start()
        upstream.on(path, githubIssues(cacheControl: cacheControl))
        let token = FileManager.default.temporaryDirectory.appendingPathComponent("rds-token-\(UUID().uuidString)")
        try Data("Bearer test-token\n".utf8).write(to: token)
        let gateway = try await start(
            "github.json",
            environment: ["GITHUB_API_URL": upstream.baseURL, "GITHUB_TOKEN_FILE": token.path, "HOME": "/home/me"])
        return (gateway, upstream, token)
    }

    @Test func github_SendsTheTokenFromItsFile_ForwardsLinkAndETag_AndRevalidates() async throws {
        let path = "/repos/swiftlang/swift/issues"
        let (gateway, upstream, token) = try await Self.startGitHub(
            path: path, cacheControl: "public, max-age=60, s-maxage=60")
        defer { try? FileManager.default.removeItem(at: token) }
        let target = "/github/repos/swiftlang/swift/issues?page=2&per_page=5&access_token=leak"
        let miss = try await gateway.get(target)
        #expect(miss.status == 200)
        #expect(miss.headers["Link"] == Self.link)
        #expect(miss.headers["ETag"] == #""v1""#)
        let sent = try #require(upstream.requests(path).first)
        #expect(sent.headers["Authorization"] == "Bearer test-token")
        #expect(sent.headers["Accept"] == "application/vnd.github+json")
        #expect(sent.headers["X-GitHub-Api-Version"] == "2022-11-28")
        #expect(sent.target.contains("page=2") && sent.target.contains("per_page=5"))
        #expect(!sent.target.contains("access_token"))
        gateway.clock.advance(by: 61)
        let revalidated = try await gateway.get(target)
        #expect(revalidated.headers["X-Cache"] == "REVALIDATED")
        #expect(revalidated.headers["Link"] == Self.link)
        #expect(upstream.requests(path).last?.headers["If-None-Match"] == #""v1""#)
        let conditional = try await gateway.get(target, headers: ["If-None-Match": #""v1""#])
        #expect(conditional.status == 304)
        await gateway.stop()
        await upstream.stop()
    }

    /// GitHub marks authenticated answers `private`: a shared cache must not store them (RFC 9111
    /// §5.2.2.7), so every request reaches GitHub; `Link` and `ETag` still pass through.
    @Test func github_PassesPrivateAnswersThrough_WithoutStoringThem() async throws {
        let path = "/repos/swiftlang/swift/issues"
        let (gateway, upstream, token) = try await Self.startGitHub(
            path: path, cacheControl: "private, max-age=60, s-maxage=60")
        defer { try? FileManager.default.removeItem(at: token) }
        for _ in 0..<2 {
            let answer = try await gateway.get("/github/repos/swiftlang/swift/issues")
            #expect(answer.status == 200)
            #expect(answer.headers["Link"] == Self.link)
            #expect(answer.headers["X-Cache"] == "BYPASS")
        }
        #expect(upstream.calls(path) == 2)
        await gateway.stop()
        await upstream.stop()
    }
}
