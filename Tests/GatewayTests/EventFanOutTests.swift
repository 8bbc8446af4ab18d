import Foundation
import RDS
import RDSTesting
import Testing

@testable import Gateway

/// Server-Sent Events are rendered once per state and buffered one deep per subscriber.
@Suite(.timeLimit(.minutes(1)))
struct EventFanOutTests {
    static let key = ResourceKey(repository: "items", path: "/items/a")

    static func loaded(_ version: Int, size: Int = 16) -> ResourceState<Representation> {
        let body = Array("\(version):".utf8) + [UInt8](repeating: 0x61, count: size)
        return .loaded(
            Representation(status: 200, headers: ["Content-Type": "text/plain"], body: body), origin: .service,
            at: Date(timeIntervalSince1970: 1_767_225_600))
    }

    static func text(_ bytes: [UInt8]?) -> String { bytes.map { String(decoding: $0, as: UTF8.self) } ?? "<end>" }

    @Test func slowSubscriber_SkipsToTheNewestState_AndSharesItsBytes() async throws {
        let fanOut = EventFanOut(clock: ManualClock())
        let (states, publish) = AsyncStream.makeStream(of: ResourceState<Representation>.self)
        publish.yield(.initialized)
        let slow = fanOut.subscribe(to: Self.key) { states }
        let reader = fanOut.subscribe(to: Self.key) { Issue.record("one source per key"); return states }
        var reading = reader.makeAsyncIterator()
        #expect(Self.text(await reading.next()).hasPrefix("event: initialized"))
        for version in 1...5 { publish.yield(Self.loaded(version, size: 64 * 1_024)) }
        var last: [UInt8]?
        while let event = await reading.next() {
            last = event
            if Self.text(event).contains("\"5:") { break }
        }
        var slowEvents = slow.makeAsyncIterator()
        let newest = await slowEvents.next()
        #expect(Self.text(newest).contains("\"5:"))
        let addresses = [newest, last].map { $0?.withUnsafeBytes { Int(bitPattern: $0.baseAddress) } }
        #expect(addresses[0] != nil && addresses[0] == addresses[1])
    }

    @Test func heartbeat_NeverDisplacesAnUnreadState() async throws {
        let clock = ManualClock()
        let fanOut = EventFanOut(clock: clock)
        let (states, publish) = AsyncStream.makeStream(of: ResourceState<Representation>.self)
        let events = fanOut.subscribe(to: Self.key) { states }
        let watcher = fanOut.subscribe(to: Self.key) { states }
        var watching = watcher.makeAsyncIterator()
        publish.yield(Self.loaded(1))
        #expect(Self.text(await watching.next()).contains("\"1:"))
        for _ in 0..<2 {
            while clock.sleeperCount == 0 { await Task.yield() }
            clock.advance(by: 15)
            #expect(await watching.next() == EventFanOut.ping)
        }
        var iterator = events.makeAsyncIterator()
        #expect(Self.text(await iterator.next()).contains("\"1:"))
    }

    @Test func channel_Stops_WhenItsLastSubscriberLeaves() async throws {
        let fanOut = EventFanOut(clock: ManualClock())
        let (states, publish) = AsyncStream.makeStream(of: ResourceState<Representation>.self)
        let (ended, end) = AsyncStream.makeStream(of: Void.self)
        publish.onTermination = { _ in end.yield() }
        publish.yield(.initialized)
        var events: AsyncStream<[UInt8]>? = fanOut.subscribe(to: Self.key) { states }
        #expect(fanOut.channelCount == 1)
        _ = events
        events = nil
        var iterator = ended.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        #expect(fanOut.channelCount == 0)
    }
}
