import Foundation
import RDS
import RDSTesting
import Testing

/// A repository with a ``FetchCoordinator``: the lease holder fetches and releases, a waiter
/// answers with what another process stored, and a wait never outlasts the fetch deadline.
@Suite(.timeLimit(.minutes(1)))
struct RepositoryFetchCoordinatorTests {
    private static func repository(
        _ fixture: RepositoryFixture, _ coordinator: ScriptedCoordinator, fetchDeadline: TimeInterval = 30
    ) -> Repository<String, String> {
        let store = RepositoryStore(
            datastore: fixture.datastore, clock: fixture.clock, logger: fixture.logger, coordinator: coordinator)
        return Repository(
            name: "weather", store: store, service: fixture.service, policy: RepositoryPolicy(fetchDeadline: fetchDeadline))
    }

    @Test func holder_CallsTheServiceOnce_AndReleasesAfterStoring() async throws {
        let fixture = RepositoryFixture()
        let coordinator = ScriptedCoordinator(.grant)
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("sunny"))
        let answer = try await Self.repository(fixture, coordinator).get("london")
        #expect(answer.value == "sunny" && answer.cacheStatus == .miss)
        #expect(coordinator.acquired == 1 && coordinator.released == 1)
        #expect(try await fixture.datastore.get("london")?.value == "sunny")
    }

    @Test func waiter_AnswersWithWhatAnotherProcessStored_WithoutCallingTheService() async throws {
        let fixture = RepositoryFixture()
        let (clock, datastore) = (fixture.clock, fixture.datastore)
        let coordinator = ScriptedCoordinator(.wait {
            try? await datastore.save(CacheEntry(value: "from B", storedAt: clock.now, expiresAt: clock.now + 60), for: "london")
        })
        let answer = try await Self.repository(fixture, coordinator).get("london")
        #expect(answer.value == "from B" && answer.cacheStatus == .hit)
        #expect(fixture.service.getCount(for: "london") == 0)
    }

    @Test func waiter_FetchesItself_WhenNothingNewWasStored() async throws {
        let fixture = RepositoryFixture()
        let coordinator = ScriptedCoordinator(.wait {})
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("own"))
        let answer = try await Self.repository(fixture, coordinator).get("london")
        #expect(answer.value == "own")
        #expect(fixture.service.getCount(for: "london") == 1)
    }

    @Test func hangingWait_EndsAtTheFetchDeadline() async throws {
        let fixture = RepositoryFixture()
        let coordinator = ScriptedCoordinator(.hang)
        let repository = Self.repository(fixture, coordinator, fetchDeadline: 5)
        let read = Task { try await repository.get("london") }
        #expect(await eventually { fixture.clock.sleeperCount == 1 })
        fixture.clock.advance(by: 5)
        let error = try await #require(throws: RepositoryError.self) { try await read.value }
        #expect(error.kind == .deadlineExceeded)
        #expect(fixture.service.getCount(for: "london") == 0)
    }
}
