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

    @Test func state_ReportsTheLastFailure_UntilASuccessfulLoadOrPurge_WhenNobodySubscribes() async throws {
        let fixture = RepositoryFixture(policy: RepositoryPolicy(staleIfError: 300))
        try await fixture.prime("paris", "paris-1", lifetime: 60)
        fixture.service.expectGet("london", throwing: ServiceError(.unavailable, "down"))
        _ = try? await fixture.repository.get("london")
        fixture.clock.advance(by: 61)
        fixture.service.expectGet("paris", throwing: ServiceError(.timeout, "slow"))
        let stale = try await fixture.repository.get("paris")

        #expect(stale.cacheStatus == .stale)
        #expect(fixture.store.broadcasters.count == 0)
        #expect(fixture.repository.state(of: "london").summary == "failed(fetch_failed, cached: nil)")
        #expect(fixture.repository.state(of: "paris").summary == "failed(fetch_failed, cached: paris-1)")
        let late = StateRecorder(fixture.repository.states(of: "paris"))
        #expect(await late.next(1).map(\.summary) == ["failed(fetch_failed, cached: paris-1)"])
        late.cancel()

        fixture.service.expectGet("paris", returning: RepositoryFixture.fetched("paris-2"))
        _ = try await fixture.repository.refresh("paris")
        try await fixture.repository.purge("london")

        #expect(fixture.repository.state(of: "paris").summary == "loaded(paris-2, cache)")
        #expect(fixture.repository.state(of: "london").summary == "initialized")
        #expect(fixture.store.broadcasters.rememberedFailureCount == 0)
        #expect(fixture.service.unusedScripts == 0)
    }

    @Test func state_RemembersABoundedNumberOfFailures_ForgettingTheOldestFirst() async throws {
        let service = FakeService<String, String>()
        let store = RepositoryStore(
            datastore: MemoryDatastore<String, String>(maxBytes: 1 << 20, maxEntries: 100), clock: ManualClock(),
            logger: RecordingLogger(), maxRememberedFailures: 2)
        let repository = Repository(name: "weather", store: store, service: service, policy: RepositoryPolicy())
        for key in ["a", "b", "c"] {
            service.expectGet(key, throwing: ServiceError(.unavailable, "down"))
            _ = try? await repository.get(key)
        }

        #expect(store.broadcasters.rememberedFailureCount == 2)
        #expect(repository.state(of: "a").summary == "initialized")
        #expect(repository.state(of: "b").summary == "failed(fetch_failed, cached: nil)")
        #expect(repository.state(of: "c").summary == "failed(fetch_failed, cached: nil)")
    }
}
