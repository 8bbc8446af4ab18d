import Foundation
import RDS
import RDSTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RepositoryStateTests {
    @Test func states_ReleaseEverySubscriberAndBroadcaster_WhenSubscribersLeave() async throws {
        let fixture = RepositoryFixture()
        let keys = (0..<20).map { "city-\($0)" }
        let recorders = keys.map { StateRecorder(fixture.repository.states(of: $0)) }
        for recorder in recorders { _ = await recorder.next(1) }
        for key in keys { fixture.service.expectGet(key, returning: RepositoryFixture.fetched("\(key)-v")) }
        for key in keys { _ = try await fixture.repository.get(key) }
        for recorder in recorders { #expect(await recorder.next(2).count == 2) }
        #expect(fixture.store.broadcasters.count == keys.count)

        recorders.forEach { $0.cancel() }

        #expect(await eventually { fixture.store.broadcasters.count == 0 })
        #expect(keys.allSatisfy { fixture.store.broadcasters.subscriberCount(for: $0) == 0 })
    }

    @Test func state_ShowsLoading_WhileAFetchIsUnderWay() async throws {
        let fixture = RepositoryFixture()

        let (task, gate) = await fixture.startHeldRead("london", answering: "london-1")

        #expect(fixture.repository.state(of: "london").summary == "loading(nil)")
        let late = StateRecorder(fixture.repository.states(of: "london"))
        #expect(await late.next(1).map(\.summary) == ["loading(nil)"])
        gate.open()
        _ = try await task.value
        #expect(await late.next(1).map(\.summary) == ["loaded(london-1, service)"])
    }
}
