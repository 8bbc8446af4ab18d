import Gateway
import HTTP1
import RDS
import RDSTesting
import Synchronization
import Testing

struct InstrumentedHandlerTests {
    @Test func handle_ReturnsTheClientsRequestID_AndBindsItForUpstreamCalls() async throws {
        let inner = EchoHandler()
        let handler = InstrumentedHandler(wrapping: inner, metrics: GatewayMetrics(), logger: RecordingLogger()) { _ in
            RouteClassification(route: "/weather/{city}", repository: "weather")
        }
        let response = await handler.handle(
            HTTPRequest(method: .get, target: "/weather/oslo", headers: ["X-Request-ID": "trace-42"]))

        #expect(response.headers["X-Request-ID"] == "trace-42")
        #expect(inner.seen.first?.current == "trace-42")
        #expect(inner.seen.first?.header == "trace-42")
    }

    @Test func handle_ReplacesAnInvalidRequestID_EverywhereWithTheSameNewOne() async throws {
        let inner = EchoHandler()
        let handler = InstrumentedHandler(wrapping: inner, metrics: GatewayMetrics(), logger: RecordingLogger()) { _ in
            .unmatched
        }
        let response = await handler.handle(
            HTTPRequest(method: .get, target: "/x", headers: ["X-Request-ID": "bad id\"\n{\"forged\":1}"]))

        let id = try #require(response.headers["X-Request-ID"])
        #expect(id.count == 32)
        #expect(inner.seen.first?.current == id)
        #expect(inner.seen.first?.header == id)
    }

    /// A request without an id gets one, which the inner handler reads as `RequestID.current`;
    /// its fields are passed on as they came (adding one would copy them all).
    @Test func handle_GivesARequestWithoutAnIDANewOne_WithoutAddingItToTheRequest() async throws {
        let inner = EchoHandler()
        let handler = InstrumentedHandler(wrapping: inner, metrics: GatewayMetrics(), logger: RecordingLogger()) { _ in
            .unmatched
        }
        let response = await handler.handle(HTTPRequest(method: .get, target: "/x"))

        let id = try #require(response.headers["X-Request-ID"])
        #expect(id.count == 32)
        #expect(inner.seen.first?.current == id)
        #expect(inner.seen.first?.header == nil)
    }

    @Test func handle_LogsOneJSONLinePerRequest_WithoutTheQueryString() async throws {
        let logger = RecordingLogger()
        let handler = InstrumentedHandler(wrapping: EchoHandler(status: 504), metrics: GatewayMetrics(), logger: logger)
        { _ in
            RouteClassification(route: "/weather/{city}", repository: "weather")
        }
        _ = await handler.handle(
            HTTPRequest(method: .get, target: "/weather/oslo?api_key=secret", headers: ["X-Request-ID": "r1"]))

        let event = try #require(logger.entries.only)
        #expect(event.event == "request")
        #expect(event.level == .error)
        #expect(event.fields["method"] == "GET")
        #expect(event.fields["path"] == "/weather/oslo")
        #expect(event.fields["route"] == "/weather/{city}")
        #expect(event.fields["status"] == 504)
        #expect(event.fields["request_id"] == "r1")
        #expect(event.fields["cache"] == "MISS")
        guard case .double(let milliseconds) = event.fields["duration_ms"] else {
            Issue.record("duration_ms missing")
            return
        }
        #expect(milliseconds >= 0)
        #expect(!event.fields.values.contains { "\($0)".contains("secret") })
    }

    @Test func handlers_CountRequestsAndCacheResults_OnBothPaths() async throws {
        let metrics = GatewayMetrics()
        let inner = EchoHandler(immediateCacheHeader: "HIT")
        let handler = InstrumentedHandler(wrapping: inner, metrics: metrics, logger: RecordingLogger()) { request in
            request.path.hasPrefix("/weather/")
                ? RouteClassification(route: "/weather/{city}", repository: "weather") : .unmatched
        }
        let fast = try #require(handler.respondImmediately(toCopyOf: HTTPRequest(method: .get, target: "/weather/oslo")))
        _ = await handler.handle(HTTPRequest(method: .get, target: "/weather/rome"))
        _ = await handler.handle(
            HTTPRequest(method: HTTPMethod(rawValue: "BREW"), target: "/random/\(UInt64.random(in: 0...UInt64.max))"))

        let families = try PrometheusTextParser.parse(metrics.prometheusText())
        #expect(fast.headers["X-Request-ID"]?.count == 32)
        #expect(
            value(in: families, "rds_gateway_cache_lookups_total", ["repository": "weather", "result": "hit"]) == 1)
        #expect(
            value(in: families, "rds_gateway_cache_lookups_total", ["repository": "weather", "result": "miss"]) == 1)
        let requests = ["route": "/weather/{city}", "method": "GET", "status": "200"]
        #expect(value(in: families, "rds_gateway_http_requests_total", requests) == 2)
        let other = ["route": "unmatched", "method": "other", "status": "200"]
        #expect(value(in: families, "rds_gateway_http_requests_total", other) == 1)
        #expect(value(in: families, "rds_gateway_http_requests_in_flight", [:]) == 0)
    }

    @Test func logLines_CarryTheXCacheValueAsItIs_TheUsualOnesAndOthers() throws {
        for xCache in ["HIT", "MISS", "STALE", "REVALIDATED", "BYPASS", "hit", "EXPIRED"] {
            let lines = Mutex<[String]>([])
            let logger = JSONLinesLogger(minimumLevel: .info) { line in lines.withLock { $0.append(line) } }
            let handler = InstrumentedHandler(
                wrapping: EchoHandler(immediateCacheHeader: xCache), metrics: GatewayMetrics(), logger: logger
            ) { _ in .unmatched }
            _ = try #require(handler.respondImmediately(toCopyOf: HTTPRequest(method: .get, target: "/x")))

            let line = try #require(lines.withLock { $0.only })
            #expect(line.contains(#","cache":"\#(xCache)","duration_ms":"#), "\(line)")
        }
    }

    @Test func respondImmediately_CountsAndLogsTheXCacheValueItsResponderNames() throws {
        let metrics = GatewayMetrics()
        let logger = RecordingLogger()
        let route = RouteClassification(route: "/weather/{city}", repository: "weather")
        let handler = InstrumentedHandler(
            wrapping: EchoHandler(), metrics: metrics, logger: logger, classify: { _ in .unmatched },
            respondImmediately: { _ in (HTTPResponse(status: 200), route, "HIT") })
        _ = try #require(handler.respondImmediately(toCopyOf: HTTPRequest(method: .get, target: "/weather/oslo")))

        let families = try PrometheusTextParser.parse(metrics.prometheusText())
        #expect(
            value(in: families, "rds_gateway_cache_lookups_total", ["repository": "weather", "result": "hit"]) == 1)
        #expect(try #require(logger.entries.only).fields["cache"] == "HIT")
    }

    /// An inner handler's own `X-Request-ID` (say, replayed from a stored answer) gives way to the
    /// request's, on both paths: each answer carries exactly one.
    @Test func answers_CarryTheRequestsIDAlone_WhateverIDTheInnerHandlersAnswerHeld() async throws {
        let answer = HTTPResponse(status: 200, headers: ["x-request-id": "another-request", "X-Cache": "HIT"])
        let inner = ClosureHTTPHandler(immediate: { _ in answer }, handle: { _ in answer })
        let handler = InstrumentedHandler(wrapping: inner, metrics: GatewayMetrics(), logger: RecordingLogger()) { _ in
            .unmatched
        }
        let request = HTTPRequest(method: .get, target: "/x", headers: ["X-Request-ID": "trace-7"])
        let fast = try #require(handler.respondImmediately(toCopyOf: request))
        #expect(fast.headers.values(for: "X-Request-ID") == ["trace-7"])
        #expect(fast.headers["X-Cache"] == "HIT")
        #expect(await handler.handle(request).headers.values(for: "X-Request-ID") == ["trace-7"])
    }

    @Test func respondImmediately_ReturnsNil_WhenTheInnerHandlerHasNoImmediateAnswer() {
        let handler = InstrumentedHandler(wrapping: EchoHandler(), metrics: GatewayMetrics(), logger: RecordingLogger())
        { _ in
            .unmatched
        }
        #expect(handler.respondImmediately(toCopyOf: HTTPRequest(method: .get, target: "/x")) == nil)
    }
}
