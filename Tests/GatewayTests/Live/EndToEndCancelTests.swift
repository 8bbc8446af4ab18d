import Foundation
import Gateway
import HTTP1
import Testing

struct EndToEndCancelTests {
    @Test func adminCancel_GivesWaitersFetchCancelled_AndSubscribersCanceledThenTheRestingState() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, _ in
            EndToEndUpstream.Reply(headers: ["Content-Type": "text/plain"], body: "late", waitForGate: true)
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        let events = try gateway.subscribe("/events?topic=/items/a")
        await events.waitForEvents(1)
        let read = Task { try await gateway.get("/items/a") }
        await upstream.waitForArrivals(1)
        await events.waitForLast { $0.name == "loading" }
        let cancel = try await gateway.send(.delete, "/admin/repositories/items/fetch?path=/items/a")
        #expect(cancel.json["cancelled"] as? Int == 1)
        let answer = try await read.value
        #expect(answer.status == 503)
        #expect(answer.json["code"] as? String == "fetch_cancelled")
        await events.waitForLast { $0.name == "initialized" }
        #expect(Array(events.names.suffix(2)) == ["canceled", "initialized"])
        let none = try await gateway.send(.delete, "/admin/repositories/items/fetch?path=/items/a")
        #expect(none.json["cancelled"] as? Int == 0)
        upstream.openGate()
        events.close()
        await gateway.stop()
        await upstream.stop()
    }
}
