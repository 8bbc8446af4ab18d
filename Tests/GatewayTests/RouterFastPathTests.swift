import Foundation
import Gateway
import HTTP1
import RDSTesting
import Testing

struct RouterFastPathTests {
    @Test func respondImmediately_AnswersFreshHitsOnly() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, _ in EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60"], body: "a") }
        let clock = EndToEndGateway.makeClock()
        let configuration = GatewayConfiguration(
            services: ["up": ServiceSettings(baseURL: upstream.baseURL)],
            repositories: ["items": RepositorySettings(route: "/items/{id}", service: "up")])
        let container = try await Bootstrap.makeContainer(
            configuration: configuration, clock: clock, logger: RecordingLogger())
        let router = GatewayRouter(container: container)
        var request = HTTPRequest(method: .get, target: "/items/a")
        #expect(router.respondImmediately(to: &request) == nil)
        #expect(await router.handle(request).headers["X-Cache"] == "MISS")
        let hit = try #require(router.respondImmediately(toCopyOf: request))
        #expect(hit.headers["X-Cache"] == "HIT")
        #expect(hit.headers["Cache-Status"] == "rds-gateway; hit; ttl=60")
        #expect(router.respondImmediately(toCopyOf: HTTPRequest(method: .head, target: "/items/a"))?.status == 200)
        #expect(
            router.respondImmediately(
                toCopyOf: HTTPRequest(method: .get, target: "/items/a", headers: ["Cache-Control": "no-cache"])) == nil)
        #expect(
            router.respondImmediately(
                toCopyOf: HTTPRequest(method: .get, target: "/items/a", headers: ["Accept": "text/event-stream"])) == nil)
        #expect(router.respondImmediately(toCopyOf: HTTPRequest(method: .put, target: "/items/a")) == nil)
        #expect(router.respondImmediately(toCopyOf: HTTPRequest(method: .get, target: "/health"))?.status == 200)
        clock.advance(by: 61)
        #expect(router.respondImmediately(toCopyOf: request) == nil)
        #expect(upstream.calls("/items/a") == 1)
        await Bootstrap.shutdown(container: container)
        await upstream.stop()
    }

    @Test func respondImmediately_AnswersAFreshHitOnlyTheDiskLevelHolds_AndKeepsItInMemory() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rds-fast-disk-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, _ in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60", "ETag": "\"a\""], body: "from disk")
        }
        let clock = EndToEndGateway.makeClock()
        let configuration = GatewayConfiguration(
            cache: CacheSettings(disk: DiskCacheSettings(path: folder.path)),
            services: ["up": ServiceSettings(baseURL: upstream.baseURL)],
            repositories: ["items": RepositorySettings(route: "/items/{id}", service: "up")])
        let filling = try await Bootstrap.makeContainer(
            configuration: configuration, clock: clock, logger: RecordingLogger())
        #expect(await GatewayRouter(container: filling).handle(HTTPRequest(method: .get, target: "/items/a")).status == 200)
        await Bootstrap.shutdown(container: filling)  // writes the entry to the disk level
        // A new process: its memory level is empty, the file is in the page cache.
        let container = try await Bootstrap.makeContainer(
            configuration: configuration, clock: clock, logger: RecordingLogger())
        let router = GatewayRouter(container: container)
        clock.advance(by: 5)
        let hit = try #require(router.respondImmediately(toCopyOf: HTTPRequest(method: .get, target: "/items/a")))
        #expect(hit.headers["X-Cache"] == "HIT")
        #expect(hit.headers["Age"] == "5")
        #expect(hit.allHeaders["ETag"] == "\"a\"")
        // Kept in memory: answered again with the disk level's files gone.
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        #expect(router.respondImmediately(toCopyOf: HTTPRequest(method: .get, target: "/items/a"))?.status == 200)
        #expect(upstream.calls("/items/a") == 1)
        await Bootstrap.shutdown(container: container)
        await upstream.stop()
    }

    @Test func handle_AnswersFromTheMatchRespondImmediatelyNoted_OnlyInItsOwnContainer() async throws {
        let upstream = try await EndToEndUpstream.start()
        for path in ["/items/a", "/items/b", "/other/a"] {
            upstream.on(path) { _, _ in EndToEndUpstream.Reply(headers: ["Cache-Control": "no-store"], body: path) }
        }
        var containers: [GatewayDependencyContainer] = []
        for upstreamPath in ["/items/{id}", "/other/{id}"] {
            let configuration = GatewayConfiguration(
                services: ["up": ServiceSettings(baseURL: upstream.baseURL)],
                repositories: [
                    "items": RepositorySettings(route: "/items/{id}", service: "up", upstreamPath: upstreamPath)
                ])
            containers.append(
                try await Bootstrap.makeContainer(
                    configuration: configuration, clock: EndToEndGateway.makeClock(), logger: RecordingLogger()))
        }
        let (router, reloaded) = (GatewayRouter(container: containers[0]), GatewayRouter(container: containers[1]))
        var request = HTTPRequest(method: .get, target: "/items/a")
        #expect(router.respondImmediately(to: &request) == nil)
        // The match it noted is what `handle` answers from: the target is not matched again.
        var retargeted = request
        retargeted.target = "/items/b"
        #expect(await router.handle(retargeted).text == "/items/a")
        // A router of another container (a reload in between) matches the request anew.
        #expect(await reloaded.handle(request).text == "/other/a")
        #expect(upstream.calls("/items/b") == 0)
        for container in containers { await Bootstrap.shutdown(container: container) }
        await upstream.stop()
    }

    @Test func handle_NamesTheRouteItMatched_ToTheLogLine_WithoutClassifyingAgain() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/p") { _, _ in EndToEndUpstream.Reply(headers: ["Cache-Control": "no-store"], body: "p") }
        let configuration = GatewayConfiguration(
            services: ["up": ServiceSettings(baseURL: upstream.baseURL)],
            repositories: ["items": RepositorySettings(route: "/items/{id}", service: "up")])
        let container = try await Bootstrap.makeContainer(
            configuration: configuration, clock: EndToEndGateway.makeClock(), logger: RecordingLogger())
        let logger = RecordingLogger()
        // A classifier that would name no route: the router's own match is what the line names.
        let handler = InstrumentedHandler(
            wrapping: GatewayRouter(container: container), metrics: container.metrics, logger: logger
        ) { _ in .unmatched }
        #expect(await handler.handle(HTTPRequest(method: .get, target: "/items/p")).status == 200)
        #expect(await handler.handle(HTTPRequest(method: .get, target: "/health")).status == 200)
        let lines = logger.entries.filter { $0.event == "request" }
        #expect(lines.map { $0.fields["route"] } == ["/items/{id}", "unmatched"])
        #expect(lines.map { $0.fields["repository"] } == ["items", nil])
        await Bootstrap.shutdown(container: container)
        await upstream.stop()
    }

    @Test func warmUp_LoadsTheConfiguredPaths() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/w") { _, _ in EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=60"], body: "warm")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.warmUp = ["/items/w"]
        }
        await Bootstrap.warmUp(container: gateway.container)
        #expect(upstream.calls("/items/w") == 1)
        #expect(gateway.container.readiness.report().ready)
        let answer = try await gateway.get("/items/w")
        #expect(answer.headers["X-Cache"] == "HIT")
        #expect(upstream.calls("/items/w") == 1)
        await gateway.stop()
        await upstream.stop()
    }
}
