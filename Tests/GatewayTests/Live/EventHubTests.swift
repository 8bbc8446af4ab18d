import Foundation
import RDS
import Testing

@testable import Gateway

struct EventHubTests {
    private func key(_ id: String) -> ResourceKey { ResourceKey(repository: "items", path: "/items/\(id)") }

    private func loaded(_ text: String) -> ResourceState<Representation> {
        .loaded(Representation(status: 200, body: Array(text.utf8)), origin: .service, at: Date(timeIntervalSince1970: 0))
    }

    /// The next `count` chunks of `stream` as text.
    private func read(_ stream: AsyncStream<[UInt8]>, _ count: Int) async -> [String] {
        var iterator = stream.makeAsyncIterator()
        var chunks: [String] = []
        while chunks.count < count, let chunk = await iterator.next() {
            chunks.append(String(decoding: chunk, as: UTF8.self))
        }
        return chunks
    }

    private func follow(_ key: ResourceKey) -> (AsyncStream<ResourceState<Representation>>, ResourceState<Representation>) {
        (AsyncStream { $0.finish() }, .initialized)
    }

    /// Before an event id is handed out nobody can resume: events are numbered but not kept; from
    /// the first id handed out (by ``EventHub/lastEventID`` or to a subscriber) they are.
    @Test func events_AreKeptOnlyOnceAnIdWasHandedOut() {
        let hub = EventHub()
        hub.publish(key("a"), loaded("1"))
        hub.publish(key("a"), .loading(previous: nil))
        #expect(hub.bufferedCount == 0)
        #expect(hub.lastEventID == "\(hub.boot)-2")
        hub.publish(key("a"), loaded("2"))
        #expect(hub.bufferedCount == 1)
        let subscribed = EventHub()
        _ = subscribed.subscribe(to: [.resource(key("b"))], lastEventID: nil, follow: follow)
        subscribed.publish(key("a"), loaded("1"))
        #expect(subscribed.bufferedCount == 1)
    }

    @Test func resume_ReplaysOnlyTheFollowedEventsAfterTheId() async {
        let hub = EventHub()
        hub.publish(key("a"), loaded("1"))
        let seen = hub.lastEventID
        hub.publish(key("b"), loaded("2"))
        hub.publish(key("c"), loaded("3"))
        let stream = hub.subscribe(to: [.resource(key("b")), .resource(key("c"))], lastEventID: seen, follow: follow)
        let chunks = await read(stream, 3)
        #expect(chunks[0] == "retry: 3000\n\n")
        #expect(chunks[1].hasPrefix("id: \(hub.boot)-2\nevent: loaded\n"))
        #expect(chunks[2].hasPrefix("id: \(hub.boot)-3\nevent: loaded\n"))
    }

    @Test func resumeAfterTheBufferMovedOn_GetsRefetchThenTheCurrentState() async {
        let hub = EventHub(maxEvents: 2)
        hub.publish(key("a"), loaded("1"))
        let seen = hub.lastEventID
        for text in ["2", "3", "4"] { hub.publish(key("b"), loaded(text)) }
        let stream = hub.subscribe(to: [.resource(key("a"))], lastEventID: seen, follow: follow)
        let chunks = await read(stream, 3)
        #expect(chunks[1] == "id: \(hub.boot)-4\nevent: refetch\ndata: {\"reason\":\"gap\"}\n\n")
        #expect(chunks[2].contains("event: initialized"))
        #expect(hub.bufferedCount == 2)
    }

    @Test func slowSubscriber_SkipsToTheNewestStateOfEachResource() async {
        let hub = EventHub()
        let stream = hub.subscribe(to: [.repository("items")], lastEventID: nil, follow: follow)
        for text in ["1", "2", "3"] { hub.publish(key("a"), loaded(text)) }
        hub.publish(key("b"), loaded("4"))
        let chunks = await read(stream, 3)
        #expect(chunks[1].hasPrefix("id: \(hub.boot)-3\n"))
        #expect(chunks[2].hasPrefix("id: \(hub.boot)-4\n"))
    }

    /// A fetch that ends before a slow subscriber reads its `loading` is still seen as a fetch;
    /// new work drops the unread end of the earlier one.
    @Test func slowSubscriber_KeepsLoadingBeforeTheStateThatEndedIt() async {
        let hub = EventHub()
        let stream = hub.subscribe(to: [.repository("items")], lastEventID: nil, follow: follow)
        hub.publish(key("a"), loaded("1"))
        hub.publish(key("a"), .loading(previous: nil))
        hub.publish(key("a"), loaded("2"))
        hub.publish(key("b"), .loading(previous: nil))
        hub.publish(key("b"), loaded("3"))
        hub.publish(key("b"), .loading(previous: nil))
        hub.publish(key("c"), loaded("4"))
        let chunks = await read(stream, 5)
        #expect(chunks[1].hasPrefix("id: \(hub.boot)-2\nevent: loading\n"))
        #expect(chunks[2].hasPrefix("id: \(hub.boot)-3\nevent: loaded\n"))
        #expect(chunks[3].hasPrefix("id: \(hub.boot)-6\nevent: loading\n"))
        #expect(chunks[4].hasPrefix("id: \(hub.boot)-7\n"), "b's unread loaded (5) was superseded by its new loading")
    }

    @Test func backlogPastItsBound_IsDroppedForARefetch() async {
        let hub = EventHub(maxPending: 2)
        let stream = hub.subscribe(to: [.repository("items")], lastEventID: nil, follow: follow)
        for id in ["a", "b", "c"] { hub.publish(key(id), loaded(id)) }
        let chunks = await read(stream, 2)
        #expect(chunks[1] == "event: refetch\ndata: {\"reason\":\"backlog\"}\n\n")
    }
}
