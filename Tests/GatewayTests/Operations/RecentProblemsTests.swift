import Foundation
import Gateway
import RDSTesting
import Testing

struct RecentProblemsTests {
    @Test func keepsTheNewestFirst_UpToItsCapacity() {
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_000))
        let recent = RecentProblems(capacity: 3, clock: clock)
        for index in 1...5 {
            clock.advance(by: 1)
            recent.record(method: "GET", path: "/p/\(index)", status: 502, requestID: "r\(index)", chain: "c\(index)")
        }
        #expect(recent.newestFirst.map(\.path) == ["/p/5", "/p/4", "/p/3"])
        #expect(recent.newestFirst.first?.at == Date(timeIntervalSince1970: 1_005))
    }

    @Test func adminErrors_ListsProblemAnswersWithTheirChains() async throws {
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/broken") { _, _ in EndToEndUpstream.Reply(status: 500, body: "{}") }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL)
        #expect(try await gateway.get("/items/broken").status == 502)
        let listed = try await gateway.get("/admin/errors")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.text.utf8)) as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first?["path"] as? String == "/items/broken")
        #expect(entries.first?["status"] as? Int == 502)
        #expect((entries.first?["error"] as? String)?.contains("upstream_bad_response") == true)
        await gateway.stop()
        await upstream.stop()
    }
}
