import Foundation
import RDS
import Testing

@testable import Gateway

/// Write and delete process states travel beside the read states on the event hub without
/// displacing them (issue 11 §1).
@Suite(.timeLimit(.minutes(1)))
struct EventHubWriteTests {
    private static let at = Date(timeIntervalSince1970: 1_767_225_600)
    private static let key = ResourceKey(repository: "notes", path: "/notes/1")

    private static func written(_ text: String) -> Representation {
        .write(.put, body: Array(text.utf8), contentType: "text/plain", idempotencyKey: "k-1")
    }

    private static func loaded(_ text: String) -> ResourceState<Representation> {
        .loaded(Representation(status: 200, body: Array(text.utf8)), origin: .service, at: at)
    }

    private static func follow(
        _ key: ResourceKey
    ) -> (AsyncStream<ResourceState<Representation>>, ResourceState<Representation>) {
        (AsyncStream { $0.finish() }, .initialized)
    }

    /// The next `count` chunks of `stream` as text.
    private static func read(_ stream: AsyncStream<[UInt8]>, _ count: Int) async -> [String] {
        var iterator = stream.makeAsyncIterator()
        var chunks: [String] = []
        while chunks.count < count, let chunk = await iterator.next() {
            chunks.append(String(decoding: chunk, as: UTF8.self))
        }
        return chunks
    }

    @Test func writeState_PublishedWhileASubscriberIsBehind_DoesNotDisplaceTheUnreadReadState() async {
        let hub = EventHub()
        let stream = hub.subscribe(to: [.resource(Self.key)], lastEventID: nil, follow: Self.follow)
        hub.publish(Self.key, Self.loaded("1"))
        hub.publish(
            Self.key, WriteEvent(kind: .write, state: .succeeded(element: Self.written("new"), reply: nil, at: Self.at)))
        hub.publish(Self.key, Self.loaded("2"))

        let chunks = await Self.read(stream, 3)
        #expect(chunks[0] == "retry: 3000\n\n")
        #expect(chunks[1].hasPrefix("id: \(hub.boot)-3\nevent: loaded\n"))
        #expect(chunks[2].hasPrefix("id: \(hub.boot)-2\nevent: write\n"))
        #expect(chunks[2].contains(#""idempotencyKey":"k-1""#))
        #expect(chunks[2].contains(#""path":"/notes/1""#))
        #expect(chunks[2].contains(#""state":"succeeded""#))
    }

    @Test func unreadProcessing_StaysBeforeItsEnd_ANewerEndReplacesTheOlder_AndDeleteStatesAreTheirOwnStream() async {
        let hub = EventHub()
        let stream = hub.subscribe(to: [.repository("notes")], lastEventID: nil, follow: Self.follow)
        hub.publish(Self.key, WriteEvent(kind: .write, state: .processing(element: nil, since: Self.at, queued: false)))
        hub.publish(Self.key, WriteEvent(kind: .delete, state: .processing(element: nil, since: Self.at, queued: true)))
        hub.publish(
            Self.key, WriteEvent(kind: .write, state: .succeeded(element: Self.written("x"), reply: nil, at: Self.at)))
        hub.publish(
            Self.key, WriteEvent(kind: .write, state: .succeeded(element: Self.written("y"), reply: nil, at: Self.at)))

        let chunks = await Self.read(stream, 4)
        #expect(chunks[1].hasPrefix("id: \(hub.boot)-1\nevent: write\n"))
        #expect(chunks[1].contains(#""state":"processing""#))
        #expect(chunks[2].hasPrefix("id: \(hub.boot)-2\nevent: delete\n"))
        #expect(chunks[2].contains(#""queued":true"#))
        #expect(chunks[3].hasPrefix("id: \(hub.boot)-4\nevent: write\n"))
    }

    @Test func lateSubscriber_GetsTheCurrentWriteStates_AfterTheReadState_AndNotInitialOnes() async {
        let hub = EventHub()
        let deleting = WriteEvent<Representation>(
            kind: .delete, state: .processing(element: nil, since: Self.at, queued: false))
        let stream = hub.subscribe(
            to: [.resource(Self.key)], lastEventID: nil, follow: Self.follow,
            processes: { _ in [WriteEvent(kind: .write, state: .initial), deleting] })

        let chunks = await Self.read(stream, 3)
        #expect(chunks[1].contains("event: initialized"))
        #expect(chunks[2].contains("event: delete\ndata: {\"element\":null,"))
        #expect(!chunks.contains { $0.contains("event: write") })
    }

    @Test func resume_ReplaysMissedWriteStates() async {
        let hub = EventHub()
        hub.publish(Self.key, Self.loaded("1"))
        let seen = hub.lastEventID
        hub.publish(Self.key, WriteEvent(kind: .write, state: .processing(element: nil, since: Self.at, queued: false)))
        let stream = hub.subscribe(to: [.resource(Self.key)], lastEventID: seen, follow: Self.follow)

        let chunks = await Self.read(stream, 2)
        #expect(chunks[1].hasPrefix("id: \(hub.boot)-2\nevent: write\n"))
    }
}
