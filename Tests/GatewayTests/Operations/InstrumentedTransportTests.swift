@testable import Gateway
import HTTP1
import RDS
import Testing

struct InstrumentedTransportTests {
    private let endpoint = UpstreamEndpoint(scheme: "http", host: "127.0.0.1", port: 9)

    @Test func send_PassesTheCurrentRequestIDUpstream() async throws {
        let inner = ScriptedTransport(status: 200)
        let transport = InstrumentedTransport(
            wrapping: inner, service: "demo", metrics: GatewayMetrics(),
            readiness: Readiness(cacheDirectory: nil, services: []))
        let id = try #require(RequestID(validating: "trace-7"))

        _ = try await TaskPlacement.$scope.withValue(RequestContext(id: id)) {
            try await transport.send(
                HTTPRequest(method: .get, target: "/weather/oslo"), to: endpoint, timeouts: UpstreamTimeouts())
        }
        _ = try await transport.send(
            HTTPRequest(method: .get, target: "/weather/rome"), to: endpoint, timeouts: UpstreamTimeouts())

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
        let transport = InstrumentedTransport(wrapping: inner, service: "demo", metrics: metrics, readiness: readiness)
        let request = HTTPRequest(method: .get, target: "/x")

        _ = try await transport.send(request, to: endpoint, timeouts: UpstreamTimeouts())
        _ = try await transport.send(request, to: endpoint, timeouts: UpstreamTimeouts())
        await #expect(throws: TransportError.self) {
            try await transport.send(request, to: endpoint, timeouts: UpstreamTimeouts())
        }

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
