import Foundation
import Gateway
import HTTP1
import Testing

/// Write and delete process states over real sockets (issue 11 §1).
struct EndToEndWriteStateTests {
    private static func readWrite(_ settings: inout RepositorySettings) {
        settings.methods = ["GET", "HEAD", "PUT", "DELETE"]
    }

    @Test func failedWrite_NamesItsElement_InTheProblem_TheStateAndTheEvents() async throws {
        let down = try RefusingPort()
        let gateway = try await EndToEndGateway.start(upstream: down.baseURL, settings: Self.readWrite)
        let events = try gateway.subscribe("/items/n")
        await events.waitForEvents(1)

        let written = try await gateway.send(
            .put, "/items/n", headers: ["Content-Type": "text/plain", "Idempotency-Key": "\"k-1\""], body: "buy milk")

        #expect(written.status == 503)
        let element = try #require(written.json["element"] as? [String: Any])
        #expect(element["method"] as? String == "PUT")
        #expect(element["contentType"] as? String == "text/plain")
        #expect(element["size"] as? Int == 8)
        #expect(element["excerpt"] as? String == "buy milk")
        #expect(element["idempotencyKey"] as? String == "\"k-1\"")
        let state = try await gateway.get("/admin/repositories/items/state?path=/items/n").json
        let write = try #require(state["write"] as? [String: Any])
        #expect(write["state"] as? String == "failed")
        #expect((write["element"] as? [String: Any])?["excerpt"] as? String == "buy milk")
        #expect((write["error"] as? [String: Any])?["code"] as? String == "write_failed")
        #expect((state["delete"] as? [String: Any])?["state"] as? String == "initial")
        #expect(state["state"] as? String == "initialized")
        // A subscriber that is behind skips to the newest write state (`processing` may be skipped).
        await events.waitForLast { $0.name == "write" && $0.data.contains(#""state":"failed""#) }
        #expect(events.names.first == "initialized")
        #expect(events.names.dropFirst().allSatisfy { $0 == "write" })
        #expect(events.events.dropFirst().dropLast().allSatisfy { $0.data.contains(#""state":"processing""#) })
        #expect(events.events.last?.data.contains(#""idempotencyKey":"\"k-1\"""#) == true)
        events.close()
        await gateway.stop()
    }

    @Test func successfulWriteAndDelete_PublishTheirOwnStates_WithTheUpstreamStatus() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/n") { request, _ in
            request.method == .delete
                ? EndToEndUpstream.Reply(status: 204, headers: [:])
                : EndToEndUpstream.Reply(
                    status: 201, headers: ["Content-Type": "text/plain", "Cache-Control": "max-age=60"],
                    body: "stored")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL, settings: Self.readWrite)
        #expect(try await gateway.send(.put, "/items/n", body: "a").status == 201)
        #expect(try await gateway.send(.delete, "/items/n", headers: ["Idempotency-Key": "d-1"]).status == 204)

        let state = try await gateway.get("/admin/repositories/items/state?path=/items/n").json
        let write = try #require(state["write"] as? [String: Any])
        #expect(write["state"] as? String == "succeeded")
        #expect(write["status"] as? Int == 201)
        let delete = try #require(state["delete"] as? [String: Any])
        #expect(delete["state"] as? String == "succeeded")
        #expect(delete["status"] as? Int == 204)
        #expect((delete["element"] as? [String: Any])?["idempotencyKey"] as? String == "d-1")
        #expect(upstream.requests("/items/n").last?.headers["Idempotency-Key"] == "d-1")
        await gateway.stop()
        await upstream.stop()
    }
}
