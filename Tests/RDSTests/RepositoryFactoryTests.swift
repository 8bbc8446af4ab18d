import Foundation
import RDS
import RDSTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RepositoryFactoryTests {
    @Test func makeRepository_SharesStore_AcrossRepositories() async throws {
        let fixture = RepositoryFixture()
        let factory = RepositoryFactory(
            name: "weather", store: fixture.store, service: fixture.service, policy: RepositoryPolicy())
        let watcher = factory.makeRepository()
        let recorder = StateRecorder(watcher.states(of: "london"))
        _ = await recorder.next(1)
        let gate = FakeGate()
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-1"), heldBy: gate)

        let first = Task { try await factory.makeRepository().get("london") }
        let second = Task { try await factory.makeRepository().get("london") }
        await gate.waitForArrivals(1)
        #expect(await eventually { fixture.store.waiterCount(for: "london") == 2 })
        gate.open()

        #expect(try await [first.value.value, second.value.value] == ["london-1", "london-1"])
        #expect(await recorder.next(2).map(\.summary) == ["loading(nil)", "loaded(london-1, service)"])
        #expect(try await factory.makeRepository().get("london").cacheStatus == .hit)
        #expect(fixture.service.getCount(for: "london") == 1)
    }
}
