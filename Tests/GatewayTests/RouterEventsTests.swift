import Foundation
import HTTP1
import RDSTesting
import Testing

@testable import Gateway

struct RouterEventsTests {
    @Test func events_SendAHeartbeatComment_WhileNothingChanges() async throws {
        let clock = EndToEndGateway.makeClock()
        let configuration = GatewayConfiguration(
            services: ["up": ServiceSettings(baseURL: "http://127.0.0.1:9")],
            repositories: ["items": RepositorySettings(route: "/items/{id}", service: "up")])
        let container = try await Bootstrap.makeContainer(
            configuration: configuration, clock: clock, logger: RecordingLogger())
        let response = await GatewayRouter(container: container).handle(
            HTTPRequest(method: .get, target: "/items/a", headers: ["Accept": "text/event-stream"]))
        #expect(response.headers["Content-Type"] == "text/event-stream")
        guard case .stream(let stream) = response.body else {
            Issue.record("expected a stream")
            return
        }
        var chunks = stream.makeAsyncIterator()
        let retry = await chunks.next().map { String(decoding: $0, as: UTF8.self) }
        #expect(retry == "retry: 3000\n\n")
        let first = await chunks.next().map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(first.hasPrefix("id: \(container.events.lastEventID)\nevent: initialized\ndata: {"))
        #expect(first.contains(#""path":"/items/a""#) && first.contains(#""repository":"items""#))
        try #require(await eventually { clock.sleeperCount > 0 })
        clock.advance(by: 15)
        let second = await chunks.next().map { String(decoding: $0, as: UTF8.self) }
        #expect(second == ": ping\n\n")
    }
}
