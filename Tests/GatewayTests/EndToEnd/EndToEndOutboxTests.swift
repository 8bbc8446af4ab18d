import Foundation
import Gateway
import HTTP1
import RDSTesting
import Synchronization
import Testing

/// The durable outbox over real sockets (issue 11 §3): writes accepted while the upstream is
/// down, kept across a restart, delivered in order when it is back; 4xx on replay; admin API.
struct EndToEndOutboxTests {
    private static func queued(_ settings: inout RepositorySettings) {
        settings.methods = ["GET", "HEAD", "PUT", "DELETE"]
        settings.writes.queue = WriteQueueSettings(maxPending: 3)
    }

    /// The status the upstream answers writes with instead of storing them, while set.
    private final class Rejection: Sendable {
        let status: Mutex<Int?>
        init(_ status: Int?) { self.status = Mutex(status) }
    }

    private static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("rds-outbox-\(UUID())")
    }

    /// A gateway queueing into `folder` whose upstream refuses every connection (keep the port alive).
    private static func startWhileDown(_ folder: URL, clock: ManualClock) async throws -> (EndToEndGateway, RefusingPort) {
        let down = try RefusingPort()
        return (try await EndToEndGateway.start(upstream: down.baseURL, settings: queued, clock: clock, disk: folder), down)
    }

    /// An upstream storing what is written to `/items/{id}` (201 with the body), and answering
    /// `rejecting` instead while it is set.
    private static func storingUpstream(rejecting: Rejection) async throws -> EndToEndUpstream {
        let upstream = try await EndToEndUpstream.start()
        for path in ["/items/n", "/items/m"] {
            upstream.on(path) { request, _ in
                if let status = rejecting.status.withLock({ $0 }), request.method != .get {
                    return EndToEndUpstream.Reply(status: status, headers: ["Content-Type": "text/plain"], body: "no")
                }
                let body = request.method == .get ? "true value" : String(decoding: request.body, as: UTF8.self)
                return EndToEndUpstream.Reply(
                    status: request.method == .get ? 200 : 201,
                    headers: ["Content-Type": "text/plain", "Cache-Control": "max-age=60"], body: body)
            }
        }
        return upstream
    }

    /// Waits until an event satisfying `condition` has arrived (or the stream closed).
    private static func waitFor(_ events: EndToEndEventStream, _ condition: (EndToEndEventStream.Event) -> Bool) async {
        var seen = 0
        while !events.events.contains(where: condition), seen < 200 {
            seen = events.events.count + 1
            await events.waitForEvents(seen)
        }
    }

    @Test func writesWhileDown_AreAcknowledged_ReadBack_AndDeliveredInOrderAfterARestart() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = EndToEndGateway.makeClock()
        let (first, down) = try await Self.startWhileDown(folder, clock: clock)
        let events = try first.subscribe("/items/n")
        await events.waitForEvents(1)

        let milk = try await first.send(.put, "/items/n", headers: ["Content-Type": "text/plain"], body: "milk")
        let eggs = try await first.send(
            .put, "/items/n", headers: ["Content-Type": "text/plain", "Idempotency-Key": "\"e-1\""], body: "eggs")

        #expect(milk.status == 202)
        let location = try #require(milk.headers["Location"])
        #expect(location.hasPrefix("/admin/repositories/items/writes/"))
        #expect(milk.json["status"] as? String == "queued")
        #expect(eggs.status == 202)
        let read = try await first.get("/items/n")
        #expect(read.status == 200)
        #expect(read.text == "eggs")
        #expect(read.headers["X-Resource-State"] == "pending")
        #expect(read.headers["Cache-Status"]?.contains("detail=pending") == true)
        let shown = try await first.get(location)
        #expect(shown.json["status"] as? String == "pending")
        #expect((shown.json["element"] as? [String: Any])?["excerpt"] as? String == "milk")
        let state = try await first.get("/admin/repositories/items/state?path=/items/n").json
        #expect((state["write"] as? [String: Any])?["queued"] as? Bool == true)
        await Self.waitFor(events) { $0.name == "loaded" && $0.data.contains(#""origin":"pending""#) }
        #expect(events.events.contains { $0.name == "loaded" && $0.data.contains(#""origin":"pending""#) })
        events.close()
        await first.stop()
        withExtendedLifetime(down) {}

        let rejecting = Rejection(nil)
        let upstream = try await Self.storingUpstream(rejecting: rejecting)
        let second = try await EndToEndGateway.start(
            upstream: upstream.baseURL, settings: Self.queued, clock: clock, disk: folder)
        let watching = try second.subscribe("/items/n")
        await Self.waitFor(watching) { $0.name == "loaded" && $0.data.contains("eggs") }

        let sent = upstream.requests("/items/n")
        #expect(sent.map { String(decoding: $0.body, as: UTF8.self) } == ["milk", "eggs"])
        #expect(sent.last?.headers["Idempotency-Key"] == "\"e-1\"")
        #expect(sent.first?.headers["Idempotency-Key"]?.isEmpty == false)
        let list = try await second.get("/admin/repositories/items/writes").json
        #expect(list["pending"] as? Int == 0)
        let after = try await second.get("/items/n")
        #expect(after.text == "eggs")
        #expect(after.headers["X-Resource-State"] == nil)
        watching.close()
        await second.stop()
        await upstream.stop()
    }

    @Test func rejectedOnReplay_IsDeadLettered_ThenRetriedByAnOperator() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = EndToEndGateway.makeClock()
        let (first, down) = try await Self.startWhileDown(folder, clock: clock)
        let accepted = try await first.send(.put, "/items/m", headers: ["Content-Type": "text/plain"], body: "late")
        #expect(accepted.status == 202)
        let location = try #require(accepted.headers["Location"])
        await first.stop()
        withExtendedLifetime(down) {}

        let rejecting = Rejection(409)
        let upstream = try await Self.storingUpstream(rejecting: rejecting)
        let second = try await EndToEndGateway.start(
            upstream: upstream.baseURL, settings: Self.queued, clock: clock, disk: folder)
        let events = try second.subscribe("/items/m")
        await Self.waitFor(events) { $0.name == "write" && $0.data.contains(#""state":"failed""#) }
        let dead = try await second.get(location).json
        #expect(dead["status"] as? String == "dead")
        #expect(dead["deadReason"] as? String == "rejected: HTTP 409")
        let failed = try #require(events.events.last { $0.name == "write" }?.data)
        #expect(failed.contains(#""excerpt":"late""#))
        #expect(try await second.get("/items/m").text == "true value")

        rejecting.status.withLock { $0 = nil }
        let retried = try await second.send(HTTPMethod.post, location + "/retry")
        #expect(retried.status == 202)
        await Self.waitFor(events) { $0.name == "loaded" && $0.data.contains("late") }
        #expect(try await second.get("/admin/repositories/items/writes").json["dead"] as? Int == 0)
        #expect(try await second.send(HTTPMethod.post, location + "/retry").status == 404)
        events.close()
        await second.stop()
        await upstream.stop()
    }

    @Test func pendingDelete_Reads404_FullOutboxIs503_DiscardForgetsAWrite() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (gateway, down) = try await Self.startWhileDown(folder, clock: EndToEndGateway.makeClock())

        let deleted = try await gateway.send(.delete, "/items/n")
        #expect(deleted.status == 202)
        let read = try await gateway.get("/items/n")
        #expect(read.status == 404)
        #expect(read.json["code"] as? String == "pending_delete")
        #expect(try await gateway.send(.put, "/items/a", body: "1").status == 202)
        #expect(try await gateway.send(.put, "/items/b", body: "2").status == 202)
        let full = try await gateway.send(.put, "/items/c", body: "3")
        #expect(full.status == 503)
        #expect(full.headers["Retry-After"] == "1")
        #expect(full.json["code"] as? String == "outbox_full")

        let metrics = try await gateway.get("/metrics").text
        #expect(metrics.contains(#"rds_gateway_writes_total{repository="items",result="queued"} 3"#))
        #expect(metrics.contains(#"rds_gateway_write_queue_depth{repository="items"} 3"#))
        let ready = try await gateway.get("/health/ready")
        #expect(ready.status == 200)
        let queues = try #require(ready.json["write_queues"] as? [[String: Any]])
        #expect(queues.first?["pending"] as? Int == 3)
        #expect(queues.first?["dead_letters"] as? Int == 0)

        let location = try #require(deleted.headers["Location"])
        #expect(try await gateway.send(.delete, location).status == 200)
        #expect(try await gateway.get(location).status == 404)
        #expect(try await gateway.send(.put, "/items/c", body: "3").status == 202)
        await gateway.stop()
        withExtendedLifetime(down) {}
    }
}
