import Foundation
import Gateway
import HTTP1
import Testing

/// `Idempotency-Key` over real sockets (issue 11 §2, draft-ietf-httpapi-idempotency-key-header).
struct EndToEndIdempotencyTests {
    private static func readWrite(_ settings: inout RepositorySettings) {
        settings.methods = ["GET", "HEAD", "PUT", "POST"]
        settings.writes.idempotencyRetention = 600
    }

    private static func counting(_ upstream: EndToEndUpstream, gated: Bool = false) {
        upstream.on("/items/n") { request, call in
            var reply = EndToEndUpstream.Reply(
                status: 201, headers: ["Content-Type": "text/plain"],
                body: "\(String(decoding: request.body, as: UTF8.self))#\(call)")
            reply.waitForGate = gated
            return reply
        }
    }

    @Test func sameKeyAndRequest_ReplaysTheFirstAnswer_AnotherRequestIs422() async throws {
        let upstream = try await EndToEndUpstream.start()
        Self.counting(upstream)
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL, settings: Self.readWrite)
        let headers: HTTPHeaders = ["Content-Type": "text/plain", "Idempotency-Key": "\"order-1\""]

        let first = try await gateway.send(.post, "/items/n", headers: headers, body: "milk")
        let again = try await gateway.send(.post, "/items/n", headers: headers, body: "milk")
        let other = try await gateway.send(.post, "/items/n", headers: headers, body: "eggs")

        #expect(first.status == 201)
        #expect(first.text == "milk#1")
        #expect(first.headers["Idempotency-Retention"] == "600")
        #expect(first.headers["Idempotent-Replayed"] == nil)
        #expect(again.status == 201)
        #expect(again.text == "milk#1")
        #expect(again.headers["Idempotent-Replayed"] == "true")
        #expect(other.status == 422)
        #expect(other.headers["Content-Type"] == "application/problem+json")
        #expect(other.json["code"] as? String == "idempotency_key_mismatch")
        let sent = upstream.requests("/items/n")
        #expect(sent.count == 1)
        #expect(sent.first?.headers["Idempotency-Key"] == "\"order-1\"")
        await gateway.stop()
        await upstream.stop()
    }

    @Test func concurrentWritersOnOneKey_SecondIs409WhileTheFirstIsInFlight() async throws {
        let upstream = try await EndToEndUpstream.start()
        Self.counting(upstream, gated: true)
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL, settings: Self.readWrite)
        let headers: HTTPHeaders = ["Idempotency-Key": "k-2"]

        let first = Task { try await gateway.send(.put, "/items/n", headers: headers, body: "a") }
        await upstream.waitForArrivals(1)
        let second = try await gateway.send(.put, "/items/n", headers: headers, body: "a")
        let differing = try await gateway.send(.put, "/items/n", headers: headers, body: "b")
        upstream.openGate()

        #expect(second.status == 409)
        #expect(second.json["code"] as? String == "idempotency_key_in_flight")
        #expect(differing.status == 422)
        #expect(try await first.value.status == 201)
        #expect(try await gateway.send(.put, "/items/n", headers: headers, body: "a").text == "a#1")
        #expect(upstream.calls("/items/n") == 1)
        await gateway.stop()
        await upstream.stop()
    }

    @Test func failureBeforeAnAnswer_IsNotRemembered_SoARetryIsForwarded() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/n") { _, call in
            EndToEndUpstream.Reply(status: call == 1 ? 503 : 200, headers: ["Content-Type": "text/plain"], body: "\(call)")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL, settings: Self.readWrite)
        let headers: HTTPHeaders = ["Idempotency-Key": "k-3"]
        #expect(try await gateway.send(.put, "/items/n", headers: headers, body: "a").status == 502)
        let retried = try await gateway.send(.put, "/items/n", headers: headers, body: "a")
        #expect(retried.status == 200)
        #expect(retried.headers["Idempotent-Replayed"] == nil)
        #expect(upstream.calls("/items/n") == 2)
        await gateway.stop()
        await upstream.stop()
    }

    @Test func malformedKey_Is400() async throws {
        let upstream = try await EndToEndUpstream.start()
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL, settings: Self.readWrite)
        let answer = try await gateway.send(.put, "/items/n", headers: ["Idempotency-Key": "\"a b\""], body: "a")
        #expect(answer.status == 400)
        #expect(upstream.calls("/items/n") == 0)
        await gateway.stop()
        await upstream.stop()
    }

    @Test func rememberedAnswer_SurvivesARestart_OnTheDiskLevel_AndExpires() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rds-e2e-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let upstream = try await EndToEndUpstream.start()
        Self.counting(upstream)
        let clock = EndToEndGateway.makeClock()
        let headers: HTTPHeaders = ["Idempotency-Key": "k-4"]
        let first = try await EndToEndGateway.start(
            upstream: upstream.baseURL, settings: Self.readWrite, clock: clock, disk: folder)
        #expect(try await first.send(.put, "/items/n", headers: headers, body: "a").text == "a#1")
        await first.stop()

        let second = try await EndToEndGateway.start(
            upstream: upstream.baseURL, settings: Self.readWrite, clock: clock, disk: folder)
        let replayed = try await second.send(.put, "/items/n", headers: headers, body: "a")
        #expect(replayed.text == "a#1")
        #expect(replayed.headers["Idempotent-Replayed"] == "true")
        #expect(try await second.send(.put, "/items/n", headers: headers, body: "b").status == 422)
        clock.advance(by: 600)
        #expect(try await second.send(.put, "/items/n", headers: headers, body: "b").text == "b#2")
        #expect(upstream.calls("/items/n") == 2)
        await second.stop()
        await upstream.stop()
    }
}
