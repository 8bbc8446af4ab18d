import Foundation
import RDSTesting
import Synchronization
import Testing

@testable import RDS

/// Reads of a hit-for-pass key (its last answer could not be stored): while nobody watches the
/// key, each read asks the service for itself and publishes no state; a watched key's reads
/// still publish what any fetch does.
@Suite(.timeLimit(.minutes(1)))
struct RepositoryPassThroughTests {
    /// A fixture whose key "score" is marked hit-for-pass (its first answer was not storable).
    private static func passedFixture() async throws -> RepositoryFixture {
        let fixture = RepositoryFixture()
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("0-0", isStorable: false))
        _ = try await fixture.repository.get("score")
        return fixture
    }

    /// Records the states an observer of every key is given, wanting them or not.
    private final class Observed: Sendable {
        private let recorded = Mutex<[String]>([])

        init(_ registry: StateBroadcasterRegistry<String, String>, wants: Bool) {
            registry.observe({ [self] key, state in record("\(key) \(state.summary)") }, wants: { _ in wants })
        }

        var states: [String] { recorded.withLock { $0 } }

        private func record(_ line: String) { recorded.withLock { $0.append(line) } }
    }

    @Test func concurrentReads_EachAskTheService_AndGetTheirOwnAnswer() async throws {
        let fixture = try await Self.passedFixture()
        let gate = FakeGate()
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("1-0", isStorable: false), heldBy: gate)
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("2-0", isStorable: false), heldBy: gate)

        let first = Task { try await fixture.repository.get("score") }
        let second = Task { try await fixture.repository.get("score") }
        await gate.waitForArrivals(2)
        gate.open()
        let answers = [try await first.value, try await second.value]

        #expect(Set(answers.map(\.value)) == ["1-0", "2-0"])
        #expect(answers.allSatisfy { $0.cacheStatus == .bypass && $0.entry == nil })
        #expect(fixture.store.coalescedWaiters == 0)
        #expect(fixture.service.unusedScripts == 0)
    }

    @Test func read_PublishesNoState_WhenNobodyWatchesTheKey() async throws {
        let fixture = try await Self.passedFixture()
        let observed = Observed(fixture.store.broadcasters, wants: false)
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("1-0", isStorable: false))

        let answer = try await fixture.repository.get("score")

        #expect(answer.value == "1-0" && answer.cacheStatus == .bypass)
        #expect(observed.states.isEmpty)
        #expect(fixture.store.broadcasters.count == 0)
        #expect(fixture.repository.state(of: "score").summary == "initialized")
    }

    @Test func read_PublishesLoadingThenLoaded_ToAnObserverThatWantsTheKey() async throws {
        let fixture = try await Self.passedFixture()
        let observed = Observed(fixture.store.broadcasters, wants: true)
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("1-0", isStorable: false))

        _ = try await fixture.repository.get("score")

        #expect(observed.states == ["score loading(nil)", "score loaded(1-0, service)"])
    }

    @Test func subscriber_SeesLoadingThenLoaded() async throws {
        let fixture = try await Self.passedFixture()
        let recorder = await fixture.record("score")
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("1-0", isStorable: false))

        let answer = try await fixture.repository.get("score")

        #expect(answer.value == "1-0" && answer.cacheStatus == .bypass)
        #expect(await recorder.next(2).map(\.summary) == ["loading(nil)", "loaded(1-0, service)"])
    }

    @Test func failure_IsPublishedAndRemembered_AndTheNextSuccessResolvesIt() async throws {
        let fixture = try await Self.passedFixture()
        let observed = Observed(fixture.store.broadcasters, wants: false)
        fixture.service.expectGet("score", throwing: ServiceError(.unavailable, "down"))
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("1-0", isStorable: false))

        await #expect(throws: RepositoryError.self) { try await fixture.repository.get("score") }
        let failed = fixture.repository.state(of: "score").summary
        _ = try await fixture.repository.get("score")

        #expect(failed == "failed(fetch_failed, cached: nil)")
        // The remembered failure makes the key watched: the next read publishes what resolves it.
        #expect(
            observed.states == [
                "score loading(nil)", "score \(failed)", "score loading(nil)", "score loaded(1-0, service)",
            ])
        #expect(fixture.repository.state(of: "score").summary == "initialized")
    }

    @Test func cancelledRead_CancelsItsServiceCall_AndPublishesNothing() async throws {
        let fixture = try await Self.passedFixture()
        let observed = Observed(fixture.store.broadcasters, wants: false)
        let gate = FakeGate()
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("1-0", isStorable: false), heldBy: gate)

        let read = Task { try await fixture.repository.get("score") }
        await gate.waitForArrivals(1)
        read.cancel()
        await gate.waitForCancellations(1)

        await #expect(throws: RepositoryError.self) { try await read.value }
        #expect(observed.states.isEmpty)
        #expect(fixture.repository.state(of: "score").summary == "initialized")
    }

    @Test func storableAnswer_IsStoredAndEndsThePass() async throws {
        let fixture = try await Self.passedFixture()
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("1-0"))

        let passed = try await fixture.repository.get("score")
        let cached = try await fixture.repository.get("score")

        #expect(passed.cacheStatus == .miss && cached.cacheStatus == .hit && cached.value == "1-0")
        #expect(fixture.service.getCount(for: "score") == 2)
    }

    @Test func storableAnswer_IsNotStored_WhenAWriteCameWhileItWasFetched() async throws {
        let fixture = try await Self.passedFixture()
        let gate = FakeGate()
        fixture.service.expectGet("score", returning: RepositoryFixture.fetched("1-0"), heldBy: gate)
        let written = Fetched(value: "9-9", freshness: Freshness(lifetime: 60), validators: Validators())
        fixture.service.expectSave("score", .success(WriteResult(reply: "ok", stored: written)))

        let read = Task { try await fixture.repository.get("score") }
        await gate.waitForArrivals(1)
        _ = try await fixture.repository.save("9-9", for: "score")
        gate.open()
        let answer = try await read.value

        #expect(answer.value == "1-0" && answer.cacheStatus == .bypass)
        #expect(fixture.datastore.peek("score")?.value == "9-9")
    }
}
