import Foundation
import Gateway
import HTTP1
import RDSTesting
import Testing

struct DemoUpstreamTests {
    let clock = ManualClock()

    func send(
        _ demo: DemoUpstream, _ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: String = ""
    )
        async -> HTTPResponse
    {
        await demo.handle(HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8)))
    }

    func json(_ response: HTTPResponse) throws -> Any {
        guard case .bytes(let bytes) = response.body else { throw CancellationError() }
        return try JSONSerialization.jsonObject(with: Data(bytes))
    }

    @Test func weather_AnswersWithMaxAgeAndETag_AndNotModifiedWhenMatching() async throws {
        let demo = DemoUpstream(clock: clock)
        let response = await send(demo, .get, "/weather/new%20york")
        #expect(response.status == 200)
        #expect(response.headers["Cache-Control"] == "max-age=30")
        let report = try #require(try json(response) as? [String: Any])
        #expect(report["city"] as? String == "New York")
        let etag = try #require(response.headers["ETag"])
        let again = await send(demo, .get, "/weather/new-york", headers: ["If-None-Match": "W/\(etag)"])
        #expect(again.status == 304)
        clock.advance(by: 60)
        let later = await send(demo, .get, "/weather/new-york", headers: ["If-None-Match": etag])
        #expect(later.status == 200)
        #expect(later.headers["ETag"] != etag)
    }

    @Test func weather_Answers404_WhenCityUnknown() async {
        let demo = DemoUpstream(clock: clock)
        #expect(await send(demo, .get, "/weather/atlantis").status == 404)
        #expect(await send(demo, .put, "/weather/london").status == 405)
    }

    @Test func locations_SearchesByName() async throws {
        let demo = DemoUpstream(clock: clock)
        let response = await send(demo, .get, "/locations?name=new")
        let names = try #require(try json(response) as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(names == ["New York", "Newcastle"])
        #expect(response.headers["Cache-Control"] == "max-age=300")
        #expect(await send(demo, .get, "/locations").status == 400)
    }

    @Test func notes_SupportWriteReadPatchDelete() async throws {
        let demo = DemoUpstream(clock: clock)
        #expect(await send(demo, .get, "/notes/a").status == 404)
        let created = await send(
            demo, .put, "/notes/a", headers: ["Content-Type": "application/json"], body: #"{"text":"hi"}"#)
        #expect(created.status == 201)
        let patched = await send(demo, .patch, "/notes/a", body: #"{"done":true}"#)
        #expect(patched.status == 200)
        let read = await send(demo, .get, "/notes/a")
        let object = try #require(try json(read) as? [String: Any])
        #expect(object["text"] as? String == "hi")
        #expect(object["done"] as? Bool == true)
        #expect(read.headers["ETag"] == patched.headers["ETag"])
        #expect(await send(demo, .delete, "/notes/a").status == 204)
        #expect(await send(demo, .delete, "/notes/a").status == 404)
    }

    @Test func failKnob_FailsForAWhile_ThenRecovers() async throws {
        let demo = DemoUpstream(clock: clock)
        #expect(await send(demo, .get, "/weather/paris?fail=502").status == 502)
        #expect(await send(demo, .post, "/__demo/fail?status=503&for=30").status == 200)
        #expect(await send(demo, .get, "/weather/paris").status == 503)
        clock.advance(by: 31)
        #expect(await send(demo, .get, "/weather/paris").status == 200)
        _ = await send(demo, .post, "/__demo/fail?status=500")
        #expect(await send(demo, .get, "/weather/paris").status == 500)
        _ = await send(demo, .post, "/__demo/recover")
        let stats = try #require(try json(await send(demo, .get, "/__demo/stats")) as? [String: Any])
        #expect(stats["failing"] as? Bool == false)
        #expect(stats["requests"] as? Int == 4)
    }

    @Test func delayKnob_WaitsOnTheClock() async throws {
        let demo = DemoUpstream(clock: clock)
        let task = Task { await send(demo, .get, "/weather/tokyo?delay=1500") }
        try #require(await eventually { clock.sleeperCount > 0 })
        clock.advance(by: 1)
        #expect(clock.sleeperCount == 1)
        clock.advance(by: 1)
        #expect(await task.value.status == 200)
    }
}
