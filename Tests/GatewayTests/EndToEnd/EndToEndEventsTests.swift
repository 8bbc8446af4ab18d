import Foundation
import Gateway
import HTTP1
import Testing

struct EndToEndEventsTests {
    @Test func events_ShowLoadingLoadedThenFailedWithTheCachedValue() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, call in
            call == 1
                ? EndToEndUpstream.Reply(
                    headers: ["Cache-Control": "max-age=60", "Content-Type": "application/json"], body: #"{"v":1}"#)
                : EndToEndUpstream.Reply(status: 503, body: "down")
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.staleIfError = 300
        }
        let events = try gateway.subscribe("/items/a")
        await events.waitForEvents(1)
        _ = try await gateway.get("/items/a")
        await events.waitForEvents(3)
        gateway.clock.advance(by: 61)
        let stale = try await gateway.get("/items/a")
        #expect(stale.headers["X-Cache"] == "STALE")
        await events.waitForEvents(5)
        #expect(events.names == ["initialized", "loading", "loaded", "loading", "failed"])
        let failed = try #require(events.events.last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(failed.data.utf8)) as? [String: Any])
        let cached = try #require(object["cached"] as? [String: Any])
        #expect((cached["body"] as? [String: Any])?["v"] as? Int == 1)
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? String == "fetch_failed")
        #expect((error["inner"] as? [String: Any])?["code"] as? String == "upstream_bad_response")
        events.close()
        await gateway.stop()
        await upstream.stop()
    }

    @Test func events_ShowAWriteExactlyOnce_ToEverySubscriber() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/n") { request, _ in
            EndToEndUpstream.Reply(
                headers: ["Cache-Control": "max-age=60", "Content-Type": "text/plain"],
                body: String(decoding: request.body, as: UTF8.self))
        }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { settings in
            settings.methods = ["GET", "HEAD", "PUT", "DELETE"]
        }
        let first = try gateway.subscribe("/items/n")
        let second = try gateway.subscribe("/items/n")
        await first.waitForEvents(1)
        await second.waitForEvents(1)
        let written = try await gateway.send(
            .put, "/items/n", headers: ["Content-Type": "text/plain"], body: "buy milk")
        #expect(written.status == 200)
        #expect(written.text == "buy milk")
        let purged = try await gateway.send(.delete, "/admin/repositories/items/cache?path=/items/n")
        #expect(purged.status == 200)
        for events in [first, second] {
            await events.waitForEvents(5)
            let reads = events.events.filter { $0.name != "write" }
            #expect(reads.map(\.name) == ["initialized", "loaded", "initialized"])
            #expect(reads[1].data.contains(#""origin":"write""#))
            #expect(reads[1].data.contains("buy milk"))
            let writes = events.events.filter { $0.name == "write" }.map(\.data)
            #expect(writes.count == 2 && writes[0].contains(#""state":"processing""#))
            #expect(writes.last?.contains(#""state":"succeeded""#) == true)
            events.close()
        }
        #expect(upstream.requests("/items/n").map(\.method) == [.put])
        await gateway.stop()
        await upstream.stop()
    }
}
