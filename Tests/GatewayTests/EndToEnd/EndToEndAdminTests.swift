import Foundation
import Gateway
import HTTP1
import Testing

struct EndToEndAdminTests {
    static func started(adminToken: String? = nil) async throws -> (EndToEndGateway, EndToEndUpstream) {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, call in
            EndToEndUpstream.Reply(
                headers: ["Cache-Control": "max-age=60", "Content-Type": "text/plain"], body: "v\(call)")
        }
        let gateway = try await EndToEndGateway.start(
            services: ["up": ServiceSettings(baseURL: upstream.baseURL)],
            repositories: ["items": RepositorySettings(route: "/items/{id}", service: "up")], adminToken: adminToken)
        return (gateway, upstream)
    }

    @Test func gatewayEndpoints_AnswerHealthMetricsAndUnknownRoutes() async throws {
        let (gateway, upstream) = try await Self.started()
        let health = try await gateway.get("/health")
        #expect(health.status == 200)
        #expect(health.text == #"{"status":"ok","service":"rds-gateway","version":"\#(GatewayVersion.current)"}"#)
        #expect(try await gateway.get("/health/ready").status == 200)
        _ = try await gateway.get("/items/a")
        let metrics = try await gateway.get("/metrics")
        #expect(metrics.text.contains(#"rds_gateway_cache_lookups_total{repository="items",result="miss"} 1"#))
        let unknown = try await gateway.get("/nowhere")
        #expect(unknown.status == 404)
        #expect(unknown.json["code"] as? String == "route_not_found")
        let readOnly = try await gateway.send(.put, "/items/a", body: "x")
        #expect(readOnly.status == 405)
        #expect(readOnly.headers["Allow"] == "GET, HEAD")
        await gateway.stop()
        await upstream.stop()
    }

    @Test func admin_ReportsStateRefreshesAndPurges() async throws {
        let (gateway, upstream) = try await Self.started()
        let list = try await gateway.get("/admin/repositories")
        #expect(list.text.contains(#""name":"items""#))
        #expect(list.text.contains(#""readWrite":false"#))
        _ = try await gateway.get("/items/a")
        let state = try await gateway.get("/admin/repositories/items/state?path=/items/a")
        #expect(state.json["state"] as? String == "loaded")
        #expect((state.json["value"] as? [String: Any])?["body"] as? String == "v1")
        let refreshed = try await gateway.send(.post, "/admin/repositories/items/refresh?path=/items/a")
        #expect(refreshed.status == 200)
        #expect(refreshed.text == "v2")
        let accepted = try await gateway.send(.post, "/admin/repositories/items/refresh?path=/items/a&wait=false")
        #expect(accepted.status == 202)
        let purged = try await gateway.send(.delete, "/admin/repositories/items/cache")
        #expect(purged.json["purged"] as? String == "all")
        let badPath = try await gateway.get("/admin/repositories/items/state?path=/other/a")
        #expect(badPath.status == 400)
        let noSuch = try await gateway.get("/admin/repositories/nope/state?path=/items/a")
        #expect(noSuch.status == 404)
        #expect(noSuch.json["code"] as? String == "repository_not_found")
        await gateway.stop()
        await upstream.stop()
    }

    @Test func admin_RequiresTheBearerToken_WhenConfigured() async throws {
        let (gateway, upstream) = try await Self.started(adminToken: "s3cret")
        let missing = try await gateway.get("/admin/repositories")
        #expect(missing.status == 401)
        #expect(missing.headers["WWW-Authenticate"] == #"Bearer realm="rds-gateway""#)
        #expect(!missing.text.contains("s3cret"))
        #expect(try await gateway.get("/admin/repositories", headers: ["Authorization": "Bearer s3cre"]).status == 401)
        #expect(try await gateway.get("/admin/repositories", headers: ["Authorization": "Bearer s3cret"]).status == 200)
        await gateway.stop()
        await upstream.stop()
    }

    @Test func adminState_ReportsTheLastFailure_UntilTheNextSuccessfulLoad() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, call in
            call == 1 ? EndToEndUpstream.Reply(status: 503) : EndToEndUpstream.Reply(body: "v\(call)")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        let state = "/admin/repositories/items/state?path=/items/a"

        #expect(try await gateway.get("/items/a").status == 502)
        let failed = try await gateway.get(state)
        #expect(try await gateway.get("/items/a").status == 200)
        let loaded = try await gateway.get(state)

        #expect(failed.json["state"] as? String == "failed")
        #expect((failed.json["error"] as? [String: Any])?["code"] as? String == "fetch_failed")
        #expect(failed.json["cached"] is NSNull)
        #expect(loaded.json["state"] as? String == "loaded")
        await gateway.stop()
        await upstream.stop()
    }
}
