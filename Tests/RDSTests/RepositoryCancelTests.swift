import Foundation
import RDS
import RDSTesting
import Synchronization
import Testing

struct RepositoryCancelTests {
    @Test func cancelFetch_FailsItsWaiters_AnnouncesCanceled_AndRestsWhereItStarted() async throws {
        let fixture = RepositoryFixture()
        let transitions = Mutex<[String]>([])
        fixture.store.broadcasters.observeTransitions { key, event in
            transitions.withLock { $0.append("\(key) \(event.rawValue)") }
        }
        let recorder = await fixture.record("k")
        let (read, gate) = await fixture.startHeldRead("k", answering: "v1")
        #expect(await recorder.next(1).map(\.summary) == ["loading(nil)"])
        #expect(fixture.repository.cancelFetch("k"))
        do {
            _ = try await read.value
            Issue.record("the waiter of a cancelled fetch got an answer")
        } catch let error as RepositoryError {
            #expect(error.kind == .fetchCancelled)
        }
        #expect(await recorder.next(1).map(\.summary) == ["initialized"])
        #expect(transitions.withLock { $0 } == ["k canceled"])
        gate.open()
        #expect(!fixture.repository.cancelFetch("k"))
        #expect(fixture.repository.state(of: "k").summary == "initialized")
        recorder.cancel()
    }

    @Test func lastWaiterLeaving_AnnouncesCanceled() async throws {
        let fixture = RepositoryFixture()
        let transitions = Mutex<[String]>([])
        fixture.store.broadcasters.observeTransitions { key, event in
            transitions.withLock { $0.append("\(key) \(event.rawValue)") }
        }
        let (read, gate) = await fixture.startHeldRead("k", answering: "v1")
        read.cancel()
        _ = try? await read.value
        #expect(transitions.withLock { $0 } == ["k canceled"])
        gate.open()
    }
}
