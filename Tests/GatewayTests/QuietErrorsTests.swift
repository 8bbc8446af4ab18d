import Foundation
import HTTP1
import RDS
import RDSTesting
import Testing

@testable import Gateway

/// Problem bodies hide internal locations from anonymous clients; the log and admin callers see
/// them. The demo's knobs answer loopback and admin callers only. A client that leaves is a 499.
struct QuietErrorsTests {
    /// A fetch that failed connecting to an internal upstream.
    static let refusedChain = RepositoryError(
        .fetchFailed, "Could not fetch the resource", details: ["repository": "weather", "key": "weather /v2/w/oslo"],
        inner: ServiceError(
            .unavailable, "The weather service could not be reached for /v2/w/oslo",
            details: ["service": "weather", "path": "/v2/w/oslo", "endpoint": "http://10.1.2.3:8080"],
            inner: TransportError(
                .refused, "Cannot connect to http://10.1.2.3:8080", details: ["endpoint": "http://10.1.2.3:8080"])))

    static func text(_ problem: ProblemDetails) -> String { String(decoding: problem.jsonBytes(), as: UTF8.self) }

    @Test func anonymousProblem_KeepsCodesAndMessages_ButHidesTheUpstream() throws {
        let problem = ProblemDetails(error: Self.refusedChain, instance: "/weather/oslo", audience: .anonymous)
        let text = Self.text(problem)
        #expect(problem.status == 503)
        #expect(problem.detail == "The weather service could not be reached for [hidden]")
        for code in ["fetch_failed", "upstream_unavailable", "transport_refused"] { #expect(text.contains(code)) }
        #expect(text.contains("Cannot connect to [hidden]"))
        #expect(!text.contains("10.1.2.3"))
        #expect(!text.contains("/v2/w/oslo"))
        #expect(!text.contains("endpoint"))
        #expect(text.contains(#""service":"weather""#))
    }

    @Test func administratorProblem_ShowsTheWholeChain() {
        let text = Self.text(ProblemDetails(error: Self.refusedChain, instance: "/weather/oslo", audience: .administrator))
        #expect(text.contains(#""endpoint":"http://10.1.2.3:8080""#))
        #expect(text.contains("Cannot connect to http://10.1.2.3:8080"))
    }

    @Test func anonymousProblem_HidesTheAPIKeyFileAndVariable() throws {
        let sources: [SecretReader] = [
            SecretReader(.file("/run/secrets/rds-missing-\(UUID())"), what: "API key"),
            SecretReader(.environment("WEATHER_API_KEY_SECRET_NAME"), what: "API key", environment: [:]),
        ]
        for source in sources {
            let failure = try #require(throws: ServiceError.self) { try source.read() }
            let error = ServiceError(.unavailable, "The weather service has no API key for /w", inner: failure)
            let text = Self.text(ProblemDetails(error: error, instance: "/w/oslo", audience: .anonymous))
            #expect(!text.contains("/run/secrets"))
            #expect(!text.contains("WEATHER_API_KEY_SECRET_NAME"))
            #expect(!text.contains("secret_source"))
            #expect(text.contains("upstream_unavailable"))
            let full = Self.text(ProblemDetails(error: error, instance: "/w/oslo", audience: .administrator))
            #expect(full.contains("/run/secrets") || full.contains("WEATHER_API_KEY_SECRET_NAME"))
        }
    }

    /// A router (behind the instrumentation, as in the server) whose one repository's upstream refuses.
    static func refusingGateway(
        adminToken: String? = nil
    ) async throws -> (InstrumentedHandler<GatewayRouter>, RecordingLogger, RefusingPort, GatewayDependencyContainer) {
        let port = try RefusingPort()
        let configuration = GatewayConfiguration(
            server: ServerSettings(adminToken: adminToken),
            services: ["up": ServiceSettings(baseURL: port.baseURL)],
            repositories: ["items": RepositorySettings(route: "/items/{id}", service: "up")])
        let logger = RecordingLogger()
        let container = try await Bootstrap.makeContainer(
            configuration: configuration, clock: EndToEndGateway.makeClock(), logger: RecordingLogger())
        let router = GatewayRouter(container: container, demo: DemoUpstream())
        let handler = InstrumentedHandler(
            wrapping: router, metrics: GatewayMetrics(), logger: logger) { router.classify($0) }
        return (handler, logger, port, container)
    }

    @Test func router_HidesTheUpstreamFromRemoteClients_AndLogsIt() async throws {
        let (handler, logger, port, container) = try await Self.refusingGateway()
        let remote = await handler.handle(HTTPRequest(method: .get, target: "/items/a", remoteAddress: "10.0.0.7"))
        #expect(remote.status == 503)
        #expect(!remote.text.contains("127.0.0.1:\(port.port)"))
        #expect(remote.text.contains("transport_refused"))
        let line = try #require(logger.entries.last)
        #expect("\(line.fields["error"] ?? "")".contains("127.0.0.1:\(port.port)"))

        let local = await handler.handle(HTTPRequest(method: .get, target: "/items/b", remoteAddress: "127.0.0.1"))
        #expect(local.text.contains("127.0.0.1:\(port.port)"))
        await Bootstrap.shutdown(container: container)
    }

    @Test func router_ShowsTheChainToTheAdminToken_NotToLoopbackWithoutIt() async throws {
        let (handler, _, port, container) = try await Self.refusingGateway(adminToken: "t0ken")
        let local = await handler.handle(HTTPRequest(method: .get, target: "/items/a", remoteAddress: "127.0.0.1"))
        #expect(!local.text.contains("127.0.0.1:\(port.port)"))
        let admin = await handler.handle(
            HTTPRequest(
                method: .get, target: "/items/b", headers: ["Authorization": "Bearer t0ken"], remoteAddress: "10.0.0.7"))
        #expect(admin.text.contains("127.0.0.1:\(port.port)"))
        await Bootstrap.shutdown(container: container)
    }

    @Test func demoKnobs_RefuseRemoteClients_UnlessTheyHoldTheAdminToken() async throws {
        let (handler, _, _, container) = try await Self.refusingGateway(adminToken: "t0ken")
        for knob in ["/__demo/fail?status=500", "/__demo/slow?ms=10", "/__demo/recover"] {
            let refused = await handler.handle(HTTPRequest(method: .post, target: knob, remoteAddress: "10.0.0.7"))
            #expect(refused.status == 403, "\(knob)")
            #expect(refused.json["code"] as? String == "demo_forbidden")
        }
        let admin = await handler.handle(
            HTTPRequest(
                method: .post, target: "/__demo/recover", headers: ["Authorization": "Bearer t0ken"],
                remoteAddress: "10.0.0.7"))
        #expect(admin.status == 200)
        let local = await handler.handle(
            HTTPRequest(method: .post, target: "/__demo/recover", remoteAddress: "127.0.0.1"))
        #expect(local.status == 200)
        await Bootstrap.shutdown(container: container)
    }

    @Test func demoKnobs_AnswerLoopbackClients_EndToEnd() async throws {
        let gateway = try await EndToEndGateway.start(
            services: ["demo": ServiceSettings(baseURL: ServiceSettings.embeddedDemo)],
            repositories: ["weather": RepositorySettings(route: "/weather/{city}", service: "demo")])
        #expect(try await gateway.send(.post, "/__demo/slow?ms=1&for=1").status == 200)
        #expect(try await gateway.send(.post, "/__demo/recover").status == 200)
        await gateway.stop()
    }

    /// Answers once its task is cancelled, as the router does when the client went away mid-fetch.
    struct AbandonedHandler: HTTPHandler {
        func handle(_ request: HTTPRequest) async -> HTTPResponse {
            try? await Task.sleep(for: .seconds(3_600))
            return ProblemResponse.make(CancellationError(), path: request.path)
        }
    }

    @Test func clientThatLeaves_IsLoggedAtInfoAs499() async throws {
        let logger = RecordingLogger()
        let metrics = GatewayMetrics()
        let handler = InstrumentedHandler(wrapping: AbandonedHandler(), metrics: metrics, logger: logger) { _ in
            RouteClassification(route: "/items/{id}", repository: "items")
        }
        let task = Task { await handler.handle(HTTPRequest(method: .get, target: "/items/a")) }
        task.cancel()
        #expect(await task.value.status == 503)
        let line = try #require(logger.entries.only)
        #expect(line.level == .info)
        #expect(line.fields["status"] == 499)
        #expect("\(line.fields["error"] ?? "")".contains("cancelled"))
    }
}
