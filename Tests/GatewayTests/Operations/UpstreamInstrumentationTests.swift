import Foundation
@testable import Gateway
import HTTP1
import RDS
import Testing

/// The instrumentation as an ``HTTPService`` calls it around each upstream call.
struct UpstreamInstrumentationTests {
    private static let key = ResourceKey(repository: "demo", path: "/weather/oslo")

    private static func service(
        _ transport: ScriptedTransport, metrics: GatewayMetrics = GatewayMetrics(),
        readiness: Readiness = Readiness(cacheDirectory: nil, services: [])
    ) -> HTTPService {
        HTTPService(
            name: "demo", baseURL: URL(string: "http://127.0.0.1:9")!, transport: transport,
            observer: UpstreamInstrumentation(service: "demo", metrics: metrics, readiness: readiness))
    }

    @Test func send_PassesTheCurrentRequestIDUpstream() async throws {
        let inner = ScriptedTransport(status: 200)
        let service = Self.service(inner)
        let id = try #require(RequestID(validating: "trace-7"))

        _ = try await TaskPlacement.$scope.withValue(RequestContext(id: id)) {
            try await service.get(Self.key, ifChangedFrom: nil)
        }
        _ = try await service.get(Self.key, ifChangedFrom: nil)

        #expect(inner.requests.map { $0.headers["X-Request-ID"] } == ["trace-7", nil])
    }

    @Test func send_CountsCallsErrorsAndUpstreamStatus() async throws {
        let metrics = GatewayMetrics()
        let readiness = Readiness(cacheDirectory: nil, services: ["demo"])
        let answers = [200, 503]
        let calls = ScriptedCounter()
        let inner = ScriptedTransport { _ in
            let call = calls.next()
            guard call < answers.count else { throw TransportError(.timeout, "no answer within 1 s") }
            return HTTPResponse(status: answers[call])
        }
        let service = Self.service(inner, metrics: metrics, readiness: readiness)

        _ = try await service.get(Self.key, ifChangedFrom: nil)
        await #expect(throws: ServiceError.self) { try await service.get(Self.key, ifChangedFrom: nil) }
        await #expect(throws: ServiceError.self) { try await service.get(Self.key, ifChangedFrom: nil) }

        let families = try PrometheusTextParser.parse(metrics.prometheusText())
        #expect(value(in: families, "rds_gateway_upstream_requests_total", ["service": "demo"]) == 3)
        #expect(value(in: families, "rds_gateway_upstream_errors_total", ["service": "demo", "code": "http_503"]) == 1)
        #expect(
            value(in: families, "rds_gateway_upstream_errors_total", ["service": "demo", "code": "transport_timeout"])
                == 1)
        let duration = "rds_gateway_upstream_request_duration_seconds"
        #expect(value(in: families, duration, ["service": "demo"], sample: duration + "_count") == 3)
        let demo = try #require(readiness.report().upstreams.first)
        #expect(demo.status == .failing)
        #expect(demo.consecutiveFailures == 2)
        #expect(demo.lastError == "transport_timeout")
        #expect(demo.lastSuccess != nil)
    }
}
