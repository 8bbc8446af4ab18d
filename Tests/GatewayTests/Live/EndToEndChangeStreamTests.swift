import Foundation
import Gateway
import HTTP1
import Testing

struct EndToEndChangeStreamTests {
    @Test func upstreamEvents_AreApplied_AndAGapIsFollowedByARevalidation() async throws {
        let value = UpstreamValue("v1")
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, _ in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=600", "Content-Type": "text/plain"], body: value.value)
        }
        let changes = try await ChangeStreamUpstream.start()
        var items = RepositorySettings(route: "/items/{id}", service: "up")
        items.refresh = RefreshSettings(keys: ["recent"])
        let gateway = try await EndToEndGateway.start(
            services: ["up": ServiceSettings(baseURL: upstream.baseURL, changes: ChangesSettings(url: changes.url))],
            repositories: ["items": items])
        await changes.waitForConnections(1)
        #expect(try await gateway.get("/items/a").text == "v1")
        let events = try gateway.subscribe("/items/a")
        await events.waitForEvents(1)

        value.value = "v2"
        changes.send("id: 7\ndata: {\"paths\": [\"/items/a\"]}\n\n")
        await events.waitForLast { $0.name == "loaded" && $0.data.contains("v2") }
        #expect(try await gateway.get("/items/a").text == "v2")

        changes.endStream()
        value.value = "v3"
        await changes.waitForConnections(2)
        #expect(changes.lastEventIDs == [nil, "7"])
        await events.waitForLast { $0.name == "loaded" && $0.data.contains("v3") }
        #expect(try await gateway.get("/items/a").text == "v3")
        events.close()
        await gateway.stop()
        await changes.stop()
        await upstream.stop()
    }
}
