import Foundation
import RDS
import RDSTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RepositorySingleFlightTests {
    private static let callers = 1_000

    private func startCallers(_ fixture: RepositoryFixture) -> [Task<RepositoryAnswer<String>, any Error>] {
        (0..<Self.callers).map { _ in Task { try await fixture.repository.get("london") } }
    }

    @Test func get_MakesOneServiceCall_ForThousandConcurrentColdReads() async throws {
        let fixture = RepositoryFixture()
        let gate = FakeGate()
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-1"), heldBy: gate)

        let tasks = startCallers(fixture)
        await gate.waitForArrivals(1)
        #expect(await eventually { fixture.store.waiterCount(for: "london") == Self.callers })
        gate.open()

        var values: [String] = []
        for task in tasks { values.append(try await task.value.value) }
        #expect(values == Array(repeating: "london-1", count: Self.callers))
        #expect(fixture.service.getCount(for: "london") == 1)
        #expect(fixture.store.coalescedWaiters == Self.callers - 1)
        #expect(!fixture.store.isFetching("london"))
    }

    @Test func get_GivesEveryWaiterTheSameError_WhenTheSharedFetchFails() async throws {
        let fixture = RepositoryFixture()
        let gate = FakeGate()
        fixture.service.expectGet("london", throwing: ServiceError(.timeout, "slow"), heldBy: gate)

        let tasks = startCallers(fixture)
        await gate.waitForArrivals(1)
        #expect(await eventually { fixture.store.waiterCount(for: "london") == Self.callers })
        gate.open()

        var chains: Set<[String]> = []
        for task in tasks {
            do {
                _ = try await task.value
            } catch {
                chains.insert(ErrorChain(error).links.map(\.code))
            }
        }
        #expect(chains == [["fetch_failed", "upstream_timeout"]])
        #expect(fixture.service.getCount(for: "london") == 1)
    }

    /// Starts a read whose service call never answers, and moves the clock past the fetch deadline.
    private func readPastDeadline(
        _ fixture: RepositoryFixture, deadline: TimeInterval
    ) async -> (Task<RepositoryAnswer<String>, any Error>, FakeGate) {
        let (task, gate) = await fixture.startHeldRead("london", answering: "late")
        #expect(await eventually { fixture.clock.sleeperCount == 1 })
        fixture.clock.advance(by: deadline)
        return (task, gate)
    }

    @Test func get_FailsWithDeadlineExceeded_WhenServiceNeverAnswers() async throws {
        let fixture = RepositoryFixture(policy: RepositoryPolicy(fetchDeadline: 5))
        let recorder = await fixture.record("london")
        let (task, gate) = await readPastDeadline(fixture, deadline: 5)

        let error = try await #require(throws: RepositoryError.self) { try await task.value }
        #expect(error.kind == .deadlineExceeded)
        #expect(
            await recorder.next(2).map(\.summary) == ["loading(nil)", "failed(fetch_deadline_exceeded, cached: nil)"])
        #expect(!fixture.store.isFetching("london"))
        await gate.waitForCancellations(1)
    }

    @Test func get_ServesStale_WhenFetchPassesDeadlineWithinStaleIfError() async throws {
        let fixture = RepositoryFixture(policy: RepositoryPolicy(staleIfError: 600, fetchDeadline: 5))
        try await fixture.prime("london", "london-1")
        fixture.clock.advance(by: 61)
        let (task, gate) = await readPastDeadline(fixture, deadline: 5)

        let answer = try await task.value
        #expect(answer.value == "london-1")
        #expect(answer.cacheStatus == .stale)
        #expect((answer.error as? RepositoryError)?.kind == .deadlineExceeded)
        await gate.waitForCancellations(1)
    }

    @Test func get_CancelsFetch_WhenEveryWaiterLeaves() async throws {
        let fixture = RepositoryFixture()
        let recorder = await fixture.record("london")
        let gate = FakeGate()
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-1"), heldBy: gate)
        let tasks = (0..<2).map { _ in Task { try await fixture.repository.get("london") } }
        await gate.waitForArrivals(1)
        #expect(await eventually { fixture.store.waiterCount(for: "london") == 2 })

        tasks.forEach { $0.cancel() }

        for task in tasks {
            let error = try await #require(throws: RepositoryError.self) { try await task.value }
            #expect(error.kind == .cancelled)
        }
        await gate.waitForCancellations(1)
        #expect(!fixture.store.isFetching("london"))
        #expect(await recorder.next(2).map(\.summary) == ["loading(nil)", "initialized"])
        #expect((fixture.datastore.count == 0))
    }

    @Test func get_KeepsFetch_WhileAnotherCallerStillWaits() async throws {
        let fixture = RepositoryFixture()
        let gate = FakeGate()
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-1"), heldBy: gate)
        let leaving = Task { try await fixture.repository.get("london") }
        let staying = Task { try await fixture.repository.get("london") }
        await gate.waitForArrivals(1)
        #expect(await eventually { fixture.store.waiterCount(for: "london") == 2 })

        leaving.cancel()
        let error = try await #require(throws: RepositoryError.self) { try await leaving.value }
        #expect(error.kind == .cancelled)
        #expect(fixture.store.waiterCount(for: "london") == 1)
        gate.open()

        #expect(try await staying.value.value == "london-1")
        #expect(gate.cancellations == 0)
        #expect(fixture.service.getCount(for: "london") == 1)
        #expect(fixture.datastore.peek("london")?.value == "london-1")
    }

    @Test func get_StartsANewFetch_AfterAnAbandonedOne() async throws {
        let fixture = RepositoryFixture()
        let (abandoned, _) = await fixture.startHeldRead("london", answering: "abandoned")
        abandoned.cancel()
        _ = try? await abandoned.value
        fixture.service.expectGet("london", returning: RepositoryFixture.fetched("london-1"))

        let answer = try await fixture.repository.get("london")

        #expect(answer.value == "london-1")
        #expect(fixture.service.getCount(for: "london") == 2)
    }
}
