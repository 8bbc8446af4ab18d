import Foundation
import RDS
import RDSTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct StateBroadcasterTests {
    private static let at = Date(timeIntervalSince1970: 0)

    @Test func subscribe_ReplaysCurrentStateFirst() async {
        let broadcaster = StateBroadcaster<String>()
        broadcaster.publish(.loaded("v1", origin: .service, at: Self.at))

        let recorder = StateRecorder(broadcaster.subscribe())

        #expect(await recorder.next(1).map(\.summary) == ["loaded(v1, service)"])
    }

    @Test func publish_ReachesEverySubscriber_InOrderExactlyOnce() async {
        let broadcaster = StateBroadcaster<String>(bufferSize: 16)
        let recorders = (0..<5).map { _ in StateRecorder(broadcaster.subscribe()) }
        for recorder in recorders { _ = await recorder.next(1) }

        broadcaster.publish(.loading(previous: nil))
        broadcaster.publish(.loaded("v1", origin: .service, at: Self.at))
        broadcaster.publish(.failed(RepositoryError(.fetchFailed, "down"), cached: "v1"))

        let expected = ["loading(nil)", "loaded(v1, service)", "failed(fetch_failed, cached: v1)"]
        for recorder in recorders {
            #expect(await recorder.next(3).map(\.summary) == expected)
        }
        broadcaster.publish(.initialized)
        for recorder in recorders {
            #expect(await recorder.next(1).map(\.summary) == ["initialized"])
            #expect(recorder.states.count == 5)
        }
    }

    @Test func slowSubscriber_GetsNewestState_WithoutHoldingUpOthers() async {
        let broadcaster = StateBroadcaster<String>(bufferSize: 2)
        let slow = broadcaster.subscribe()
        let fast = StateRecorder(broadcaster.subscribe())
        _ = await fast.next(1)

        for index in 1...10 {
            broadcaster.publish(.loaded("v\(index)", origin: .service, at: Self.at))
            #expect(await fast.next(1).map(\.summary) == ["loaded(v\(index), service)"])
        }

        var iterator = slow.makeAsyncIterator()
        let buffered = [await iterator.next(), await iterator.next()].compactMap { $0?.summary }
        #expect(buffered == ["loaded(v9, service)", "loaded(v10, service)"])
    }

    @Test func subscriber_IsReleased_WhenStreamIsDropped() {
        let broadcaster = StateBroadcaster<String>()
        do {
            let streams = (0..<3).map { _ in broadcaster.subscribe() }
            #expect(broadcaster.subscriberCount == 3)
            _ = streams
        }
        #expect(broadcaster.subscriberCount == 0)
    }

    @Test func subscriber_IsReleased_WhenReadingTaskIsCancelled() async {
        let broadcaster = StateBroadcaster<String>()
        let recorder = StateRecorder(broadcaster.subscribe())
        _ = await recorder.next(1)
        #expect(broadcaster.subscriberCount == 1)

        recorder.cancel()

        #expect(await eventually { broadcaster.subscriberCount == 0 })
    }

    @Test func registry_DropsBroadcaster_WhenLastSubscriberLeavesAndNothingLoads() async {
        let registry = StateBroadcasterRegistry<String, String>()
        var streams: [AsyncStream<ResourceState<String>>]? = [
            registry.subscribe(to: "london") { .initialized }, registry.subscribe(to: "london") { .initialized },
        ]
        #expect(registry.count == 1)
        #expect(registry.subscriberCount(for: "london") == 2)

        streams = nil

        #expect(streams == nil)
        #expect(registry.subscriberCount(for: "london") == 0)
        #expect(registry.count == 0)
    }

    @Test func registry_KeepsBroadcaster_WhileLoading() {
        let registry = StateBroadcasterRegistry<String, String>()

        registry.publish(.loading(previous: nil), for: "london")
        #expect(registry.count == 1)
        #expect(registry.current(of: "london")?.summary == "loading(nil)")

        registry.publish(.loaded("v1", origin: .service, at: Self.at), for: "london")
        #expect(registry.count == 0)
        #expect(registry.current(of: "london") == nil)
    }

    @Test func registry_SubscriberDuringALoadNobodyWatched_StartsFromLoading_AndKeepsItsBroadcaster() async {
        let registry = StateBroadcasterRegistry<String, String>()
        registry.publish(.loading(previous: "v0"), for: "london")
        #expect(registry.isWatched("london"))

        let recorder = StateRecorder(registry.subscribe(to: "london") { .loaded("v0", origin: .service, at: Self.at) })
        #expect(await recorder.next(1).map(\.summary) == ["loading(v0)"])
        registry.publish(.loaded("v1", origin: .service, at: Self.at), for: "london")

        #expect(await recorder.next(1).map(\.summary) == ["loaded(v1, service)"])
        #expect(registry.subscriberCount(for: "london") == 1)
        #expect(registry.count == 1)
        recorder.cancel()
    }

    @Test func registry_PublishToAll_EndsALoadNobodyWatched() {
        let registry = StateBroadcasterRegistry<String, String>()
        registry.publish(.loading(previous: nil), for: "london")

        registry.publishToAll(.initialized)

        #expect(registry.count == 0)
        #expect(registry.current(of: "london") == nil)
        #expect(!registry.isWatched("london"))
    }
}
