import Foundation
import HTTP1
import Testing

@testable import Gateway

/// `GET /admin/openapi.json` (issue 15 item 2): every route the router answers is described, with
/// the repository routes of the running configuration.
struct OpenAPIDocumentTests {
    private static func paths(_ document: [String: Any]) -> [String: [String: Any]] {
        (document["paths"] as? [String: Any] ?? [:]).compactMapValues { $0 as? [String: Any] }
    }

    @Test func everyRouteTheRouterKnows_IsDescribed_WithItsMethods() throws {
        let configuration = try ConfigurationLoader(environment: [:]).load(
            data: Data(DefaultConfiguration.json.utf8), file: "built-in")
        let routes = try configuration.repositoryNames.map { name in
            try RepositoryRoute(name: name, settings: #require(configuration.repositories[name]))
        }
        let paths = Self.paths(OpenAPIDocument.object(routes: routes))
        var expected: [(path: String, method: String)] = [
            ("/health", "get"), ("/health", "head"),
            (OperationsHandler<GatewayRouter>.readinessPath, "get"), (OperationsHandler<GatewayRouter>.readinessPath, "head"),
            (OperationsHandler<GatewayRouter>.metricsPath, "get"), (OperationsHandler<GatewayRouter>.metricsPath, "head"),
        ]
        expected += AdminEndpoint.all.map { ($0.template, $0.method.rawValue.lowercased()) }
        expected += [("/hooks/{repository}", "post"), ("/events", "get")]
        for route in routes {
            expected += route.settings.methods.map { (OpenAPIDocument.path(of: route.template), $0.lowercased()) }
        }
        #expect(routes.count == 3)
        for (path, method) in expected {
            #expect(paths[path]?[method] != nil, "\(method.uppercased()) \(path) is not described")
        }
    }

    @Test func repositoryRoutes_NameTheirCapturesKeyedQueryAndHeaders() throws {
        var settings = RepositorySettings(route: "/files/{bucket}/{rest...}", service: "up")
        settings.cacheKey = CacheKeySettings(query: .only(["page"]), headers: ["Accept-Language", "Accept"])
        settings.methods = ["GET", "HEAD", "PUT"]
        let route = try RepositoryRoute(name: "files", settings: settings)
        let item = try #require(Self.paths(OpenAPIDocument.object(routes: [route]))["/files/{bucket}/{rest}"])
        let parameters = try #require(item["parameters"] as? [[String: Any]])
        let named = parameters.map { "\($0["in"] ?? "")=\($0["name"] ?? "")" }
        #expect(named == ["path=bucket", "path=rest", "query=page", "header=Accept-Language"])
        #expect(item["put"].flatMap { ($0 as? [String: Any])?["requestBody"] } != nil)
        #expect(item["get"] != nil && item["head"] != nil && item["delete"] == nil)
        let put = try #require(item["put"] as? [String: Any])
        let putParameters = try #require(put["parameters"] as? [[String: Any]])
        #expect(putParameters.map { "\($0["in"] ?? "")=\($0["name"] ?? "")" } == ["header=Idempotency-Key"])
        let responses = try #require(put["responses"] as? [String: Any])
        #expect(["400", "409", "422"].allSatisfy { responses[$0] != nil })
    }

    @Test func servedDocument_IsOpenAPI31_WithTheGatewaysVersion() async throws {
        let upstream = try await EndToEndUpstream.start()
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        let answer = try await gateway.get("/admin/openapi.json")
        #expect(answer.status == 200)
        #expect(answer.headers["Content-Type"] == "application/json")
        #expect(answer.json["openapi"] as? String == "3.1.0")
        #expect((answer.json["info"] as? [String: Any])?["version"] as? String == GatewayVersion.current)
        #expect(Self.paths(answer.json)["/items/{id}"]?["get"] != nil)
        let wrongMethod = try await gateway.send(.post, "/admin/openapi.json")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["Allow"] == "GET")
        await gateway.stop()
        await upstream.stop()
    }
}
