import Foundation
import Gateway
import HTTP1
import Testing

struct OperationsHandlerTests {
    @Test func metrics_IsAnsweredAtOnce_InValidPrometheusText() throws {
        let metrics = GatewayMetrics()
        metrics.recordRequest(route: "/health", method: "GET", status: 200, duration: .milliseconds(1))
        let handler = OperationsHandler(
            wrapping: EchoHandler(), metrics: metrics, readiness: Readiness(cacheDirectory: nil, services: []))

        let response = try #require(handler.respondImmediately(toCopyOf: HTTPRequest(method: .get, target: "/metrics")))

        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == PrometheusTextRenderer.contentType)
        guard case .bytes(let bytes) = response.body else {
            Issue.record("expected a complete body")
            return
        }
        let families = try PrometheusTextParser.parse(String(decoding: bytes, as: UTF8.self))
        #expect(
            value(
                in: families, "rds_gateway_http_requests_total", ["route": "/health", "method": "GET", "status": "200"])
                == 1)
    }

    @Test func ready_Answers503WhileWarmingUp_Then200() async throws {
        let readiness = Readiness(cacheDirectory: nil, services: ["demo"])
        let handler = OperationsHandler(wrapping: EchoHandler(), metrics: GatewayMetrics(), readiness: readiness)
        let request = HTTPRequest(method: .get, target: "/health/ready")
        #expect(handler.respondImmediately(toCopyOf: request) == nil)

        readiness.warmUpStarted()
        let warming = await handler.handle(request)
        readiness.warmUpFinished()
        let ready = await handler.handle(request)

        #expect(warming.status == 503)
        #expect(ready.status == 200)
        guard case .bytes(let bytes) = ready.body else {
            Issue.record("expected a complete body")
            return
        }
        let json = try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(json["ready"] as? Bool == true)
        #expect((json["upstreams"] as? [[String: Any]])?.first?["service"] as? String == "demo")
    }

    @Test func otherRequests_GoToTheInnerHandler_AndOtherMethodsGet405() async {
        let inner = EchoHandler(status: 418)
        let handler = OperationsHandler(
            wrapping: inner, metrics: GatewayMetrics(), readiness: Readiness(cacheDirectory: nil, services: []))

        #expect(await handler.handle(HTTPRequest(method: .get, target: "/weather/oslo")).status == 418)
        let post = await handler.handle(HTTPRequest(method: .post, target: "/metrics"))
        #expect(post.status == 405)
        #expect(post.headers["Allow"] == "GET, HEAD")
        #expect(inner.seen.count == 1)
    }
}
