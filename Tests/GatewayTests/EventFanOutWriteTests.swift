import Foundation
import RDS
import RDSTesting
import Testing

@testable import Gateway

/// Write and delete process states travel beside the read states without displacing them (issue 11 §1).
@Suite(.timeLimit(.minutes(1)))
struct EventFanOutWriteTests {
    private static let at = Date(timeIntervalSince1970: 1_767_225_600)

    private static func written(_ text: String) -> Representation {
        .write(.put, body: Array(text.utf8), contentType: "text/plain", idempotencyKey: "k-1")
    }

    @Test func writeEvent_AndReadState_PublishedTogether_BothReachASlowSubscriber() async throws {
        let fanOut = EventFanOut(clock: ManualClock())
        let (states, publish) = AsyncStream.makeStream(of: ResourceState<Representation>.self)
        let (writes, publishWrite) = AsyncStream.makeStream(of: WriteEvent<Representation>.self)
        publish.yield(.initialized)
        let slow = fanOut.subscribe(to: EventFanOutTests.key, states: { states }, writes: { writes })
        let watcher = fanOut.subscribe(to: EventFanOutTests.key, states: { states }, writes: { writes })
        var watching = watcher.makeAsyncIterator()
        #expect(EventFanOutTests.text(await watching.next()).hasPrefix("event: initialized"))

        publish.yield(EventFanOutTests.loaded(1))
        publishWrite.yield(
            WriteEvent(kind: .write, state: .succeeded(element: Self.written("new"), reply: nil, at: Self.at)))
        var seen = ""
        while !(seen.contains("event: write") && seen.contains("\"1:")) {
            seen += EventFanOutTests.text(await watching.next())
        }

        var slowEvents = slow.makeAsyncIterator()
        var slowText = ""
        while !(slowText.contains("event: write") && slowText.contains("\"1:")) {
            slowText += EventFanOutTests.text(await slowEvents.next())
        }
        #expect(slowText.contains(#""idempotencyKey":"k-1""#))
        #expect(slowText.contains(#""state":"succeeded""#))
    }

    @Test func lateSubscriber_GetsTheLastWriteState_AfterTheReadState() async throws {
        let fanOut = EventFanOut(clock: ManualClock())
        let (states, publish) = AsyncStream.makeStream(of: ResourceState<Representation>.self)
        let (writes, publishWrite) = AsyncStream.makeStream(of: WriteEvent<Representation>.self)
        publish.yield(.initialized)
        let first = fanOut.subscribe(to: EventFanOutTests.key, states: { states }, writes: { writes })
        var reading = first.makeAsyncIterator()
        _ = await reading.next()
        publishWrite.yield(WriteEvent(kind: .delete, state: .processing(element: nil, since: Self.at, queued: false)))
        #expect(EventFanOutTests.text(await reading.next()).hasPrefix("event: delete"))

        let late = fanOut.subscribe(to: EventFanOutTests.key, states: { states }, writes: { writes })
        var lateReading = late.makeAsyncIterator()
        let replayed = EventFanOutTests.text(await lateReading.next())
        #expect(replayed.hasPrefix("event: initialized"))
        #expect(replayed.contains("event: delete\ndata: {\"element\":null,\"queued\":false,\"since\""))
        _ = first
    }
}
