import Foundation
import Gateway
import HTTP1
import Testing

struct EndToEndRestartTests {
    @Test func restartedGateway_ServesDiskEntries_WithoutCallingTheUpstream() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rds-e2e-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let upstream = try await EndToEndUpstream.start()
        upstream.on("/items/a") { _, _ in
            EndToEndUpstream.Reply(headers: ["Cache-Control": "max-age=600", "ETag": "\"d\""], body: "from disk")
        }
        let clock = EndToEndGateway.makeClock()
        let first = try await EndToEndGateway.start(upstream: upstream.baseURL, clock: clock, disk: folder)
        #expect(try await first.get("/items/a").headers["X-Cache"] == "MISS")
        await first.stop()
        await upstream.stop()
        clock.advance(by: 30)
        let second = try await EndToEndGateway.start(upstream: upstream.baseURL, clock: clock, disk: folder)
        let answer = try await second.get("/items/a")
        #expect(answer.status == 200)
        #expect(answer.text == "from disk")
        #expect(answer.headers["X-Cache"] == "HIT")
        #expect(answer.headers["Age"] == "30")
        #expect(answer.headers["ETag"] == "\"d\"")
        #expect(upstream.calls("/items/a") == 1)
        await second.stop()
    }
}
