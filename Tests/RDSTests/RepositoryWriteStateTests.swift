import Foundation
import RDS
import RDSTesting
import Testing

/// The write and delete process states published beside the read states (issue 11 §1).
@Suite(.timeLimit(.minutes(1)))
struct RepositoryWriteStateTests {
    private let fixture = RepositoryFixture()

    private static func summary(_ event: WriteEvent<String>) -> String {
        switch event.state {
        case .initial: "\(event.kind.rawValue):initial"
        case .processing(let element, _, let queued):
            "\(event.kind.rawValue):processing(\(element ?? "-")\(queued ? ", queued" : ""))"
        case .succeeded(let element, let reply, _):
            "\(event.kind.rawValue):succeeded(\(element ?? "-"), \(reply ?? "-"))"
        case .failed(let error, let element, _):
            "\(event.kind.rawValue):failed(\(element ?? "-"), \(ErrorChain(error).links.map(\.code)))"
        }
    }

    private static func next(_ count: Int, of events: AsyncStream<WriteEvent<String>>) async -> [String] {
        var summaries: [String] = []
        for await event in events {
            summaries.append(summary(event))
            if summaries.count == count { break }
        }
        return summaries
    }

    @Test func save_GoesProcessingThenSucceeded_WithElementAndReply() async throws {
        let gate = FakeGate()
        let stored = Fetched(value: "saved", freshness: Freshness(lifetime: 30), validators: Validators())
        fixture.service.expectSave("london", .success(WriteResult(reply: "201", stored: stored)), heldBy: gate)
        let events = fixture.repository.writeEvents(of: "london")
        let recorder = await fixture.record("london")
        #expect(Self.summary(WriteEvent(kind: .write, state: fixture.repository.writeState(.write, of: "london")))
            == "write:initial")

        let task = Task { try await fixture.repository.save("new", for: "london") }
        await gate.waitForArrivals(1)
        #expect(fixture.repository.writeState(.write, of: "london").name == "processing")
        gate.open()
        _ = try await task.value

        #expect(await Self.next(2, of: events) == ["write:processing(new)", "write:succeeded(new, 201)"])
        #expect(await recorder.next(1).map(\.summary) == ["loaded(saved, write)"])
        #expect(recorder.states.count == 2)
        #expect(fixture.repository.writeState(.delete, of: "london").name == "initial")
    }

    @Test func save_GoesFailed_WithTheElementAndTheChain_AndNoReadState() async throws {
        try await fixture.prime("london", "london-1")
        let recorder = await fixture.record("london")
        fixture.service.expectSave("london", .failure(ServiceError(.unavailable, "down")))

        await #expect(throws: RepositoryError.self) { try await fixture.repository.save("new", for: "london") }

        let state = fixture.repository.writeState(.write, of: "london")
        #expect(Self.summary(WriteEvent(kind: .write, state: state))
            == "write:failed(new, [\"write_failed\", \"upstream_unavailable\"])")
        try await fixture.repository.purge("london")
        #expect(await recorder.next(1).map(\.summary) == ["initialized"])
        #expect(recorder.states.count == 2)
    }

    @Test func delete_PublishesOnItsOwnProcess_AndLateSubscriberSeesTheLastStates() async throws {
        fixture.service.expectSave("london", .failure(ServiceError(.rejected, "no")))
        fixture.service.expectDelete("london", .success(WriteResult(reply: "204", stored: nil)))
        _ = try? await fixture.repository.save("new", for: "london")
        try await fixture.repository.delete("london", element: "DELETE key-1")

        let late = fixture.repository.writeEvents(of: "london")
        #expect(await Self.next(2, of: late) == [
            "write:failed(new, [\"write_failed\", \"upstream_rejected\"])",
            "delete:succeeded(DELETE key-1, 204)",
        ])
    }

    @Test func registry_ForgetsTheLeastRecentlyWrittenKeys_BeyondItsBound() {
        let registry = WriteStateRegistry<String, String>(maxRememberedKeys: 2)
        let at = Date(timeIntervalSince1970: 0)
        for key in ["a", "b", "c"] {
            registry.publish(.succeeded(element: key, reply: nil, at: at), .write, for: key)
        }
        #expect(registry.count == 2)
        #expect(registry.current(.write, of: "a").name == "initial")
        #expect(registry.current(.write, of: "c").name == "succeeded")
    }
}
