import Foundation
import RDS
import Testing

@testable import Gateway

/// ``EventHub/follows(_:)``: whether anyone follows a resource, and the holes its "no" leaves in
/// the replay buffer, which a resuming subscriber must see as a gap (`refetch`), never silently.
struct EventHubFollowsTests {
    private func key(_ id: String, in repository: String = "items") -> ResourceKey {
        ResourceKey(repository: repository, path: "/\(repository)/\(id)")
    }

    private func loaded(_ text: String) -> ResourceState<Representation> {
        .loaded(Representation(status: 200, body: Array(text.utf8)), origin: .service, at: Date(timeIntervalSince1970: 0))
    }

    private func follow(_ key: ResourceKey) -> (AsyncStream<ResourceState<Representation>>, ResourceState<Representation>) {
        (AsyncStream { $0.finish() }, .initialized)
    }

    /// The first `count` chunks after `retry:`.
    private func read(_ stream: AsyncStream<[UInt8]>, _ count: Int) async -> [String] {
        var iterator = stream.makeAsyncIterator()
        var chunks: [String] = []
        while chunks.count <= count, let chunk = await iterator.next() {
            chunks.append(String(decoding: chunk, as: UTF8.self))
        }
        return Array(chunks.dropFirst())
    }

    @Test func follows_IsTrue_ForAFollowedResourceOrRepository_Only() {
        let hub = EventHub()
        let byPath = hub.subscribe(to: [.resource(key("a"))], lastEventID: nil, follow: follow)
        let byRepository = hub.subscribe(to: [.repository("notes")], lastEventID: nil, follow: follow)

        #expect(hub.follows(key("a")))
        #expect(hub.follows(key("z", in: "notes")))
        #expect(!hub.follows(key("b")))
        _ = (byPath, byRepository)
    }

    @Test func resume_GetsRefetch_WhenStatesOfAFollowedResourceWentUnpublished() async {
        let hub = EventHub()
        hub.publish(key("a"), loaded("1"))
        let seen = hub.lastEventID
        #expect(!hub.follows(key("a")))

        let stream = hub.subscribe(to: [.resource(key("a"))], lastEventID: seen, follow: follow)
        let chunks = await read(stream, 2)

        #expect(chunks[0].contains("event: refetch"))
        #expect(chunks[1].contains("event: initialized"))
    }

    @Test func resume_GetsRefetch_WhenStatesInAFollowedRepositoryWentUnpublished() async {
        let hub = EventHub()
        hub.publish(key("a"), loaded("1"))
        let seen = hub.lastEventID
        #expect(!hub.follows(key("b")))

        let stream = hub.subscribe(to: [.repository("items")], lastEventID: seen, follow: follow)

        #expect(await read(stream, 1)[0].contains("event: refetch"))
    }

    @Test func resume_ReplaysWithoutRefetch_WhenOnlyOtherResourcesWentUnpublished() async {
        let hub = EventHub()
        hub.publish(key("a"), loaded("1"))
        let seen = hub.lastEventID
        #expect(!hub.follows(key("other")))
        #expect(!hub.follows(key("x", in: "notes")))
        hub.publish(key("a"), loaded("2"))

        let stream = hub.subscribe(to: [.resource(key("a"))], lastEventID: seen, follow: follow)
        let chunks = await read(stream, 1)

        #expect(chunks[0].hasPrefix("id: \(hub.boot)-4\nevent: loaded\n"))
    }

    @Test func resume_FromAfterTheUnpublishedStates_IsNoGap() async {
        let hub = EventHub()
        #expect(!hub.follows(key("a")))
        let seen = hub.lastEventID
        hub.publish(key("a"), loaded("1"))

        let stream = hub.subscribe(to: [.resource(key("a"))], lastEventID: seen, follow: follow)

        #expect(await read(stream, 1)[0].hasPrefix("id: \(hub.boot)-2\nevent: loaded\n"))
    }

    @Test func unrecordedStates_PastTheirCapacity_MakeEveryEarlierResumeAGap() {
        var unrecorded = UnrecordedStates(capacity: 2)
        unrecorded.note(key("a"), at: 1)
        unrecorded.note(key("b"), at: 2)
        #expect(!unrecorded.missed(after: 0, keys: [key("c")], repositories: []))

        unrecorded.note(key("c", in: "notes"), at: 3)

        #expect(unrecorded.missed(after: 2, keys: [key("d")], repositories: []))
        #expect(!unrecorded.missed(after: 3, keys: [key("c", in: "notes")], repositories: ["notes"]))
    }
}
