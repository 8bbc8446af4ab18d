import Foundation
import RDS
import Synchronization

/// The Server-Sent Events of every watched resource, rendered once per state and shared by all of
/// its subscribers.
///
/// One task per watched key follows the repository's states and renders each into one byte
/// array; every subscriber's stream receives that same array (no per-subscriber copy) and buffers
/// at most one event (`bufferingNewest(1)`): a subscriber that falls behind skips to the newest
/// state. A second task follows the key's write and delete process states (`event: write`,
/// `event: delete`); such an event never silently displaces an unread one, nor is displaced by
/// one: the two are delivered together, up to ``maxJoinedBytes``. A `: ping` comment every ``heartbeat`` seconds keeps idle proxies from closing the
/// stream; it never displaces a state the subscriber has not read yet. Subscribers that stay
/// behind are closed by the HTTP server (`limits.maxStreamLag`). A key's task stops when its
/// last subscriber leaves.
final class EventFanOut: Sendable {
    private typealias Subscriber = AsyncStream<[UInt8]>.Continuation

    private struct Channel {
        var subscribers: [UInt64: Subscriber] = [:]
        /// The newest rendered state, replayed to a subscriber that joins.
        var latest: [UInt8]?
        /// The newest rendered write and delete process states, replayed after ``latest``.
        var latestWrites: [WriteKind: [UInt8]] = [:]
        /// The subscribers whose unread chunk holds a write or delete process state.
        var holdingWrites: Set<UInt64> = []

        /// Yields `event` to every subscriber. When it pushes out an unread chunk that holds (or
        /// is pushed out by) a write or delete process state, the two go out together instead,
        /// unread first, unless that would exceed ``EventFanOut/maxJoinedBytes``.
        mutating func broadcast(_ event: [UInt8], isWrite: Bool) {
            guard isWrite || !holdingWrites.isEmpty else {
                for subscriber in subscribers.values { subscriber.yield(event) }
                return
            }
            for (id, subscriber) in subscribers {
                var holdsWrite = isWrite
                if case .dropped(let unread) = subscriber.yield(event), unread != EventFanOut.ping,
                    isWrite || holdingWrites.contains(id), unread.count + event.count <= EventFanOut.maxJoinedBytes
                {
                    subscriber.yield(unread + event)
                    holdsWrite = true
                }
                if holdsWrite { holdingWrites.insert(id) } else { holdingWrites.remove(id) }
            }
        }
        var tasks: [Task<Void, Never>] = []
    }

    private struct Channels {
        var byKey: [ResourceKey: Channel] = [:]
        var nextID: UInt64 = 0
    }

    /// The heartbeat comment.
    static let ping: [UInt8] = Array(": ping\n\n".utf8)
    /// The most bytes two events joined for a subscriber that is behind may hold; beyond it the newest wins.
    static let maxJoinedBytes = 64 << 10

    private let channels = Mutex(Channels())
    private let clock: any ClockProvider
    /// Seconds between two heartbeat comments.
    let heartbeat: TimeInterval

    /// Creates an empty fan-out whose heartbeats follow `clock`.
    init(clock: any ClockProvider, heartbeat: TimeInterval = 15) {
        self.clock = clock
        self.heartbeat = heartbeat
    }

    /// The number of keys being watched.
    var channelCount: Int { channels.withLock { $0.byKey.count } }

    /// The events of `key`: its newest state first (then its last write and delete process
    /// states), then each change; `states` and `writes` are called to start following the key when
    /// nobody watches it yet (by default it has no write events).
    func subscribe(
        to key: ResourceKey, states: () -> AsyncStream<ResourceState<Representation>>,
        writes: () -> AsyncStream<WriteEvent<Representation>> = { AsyncStream { $0.finish() } }
    ) -> AsyncStream<[UInt8]> {
        let (stream, subscriber) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(1))
        // `states()` only peeks at the memory level; starting it under the lock means two first
        // subscribers cannot both start a channel.
        let id: UInt64 = channels.withLock { channels in
            channels.nextID += 1
            var channel = channels.byKey[key] ?? Channel()
            if channel.tasks.isEmpty { channel.tasks = [follow(key, states()), followWrites(key, writes()), beat(key)] }
            let replayed = (channel.latest ?? []) + WriteKind.allCases.flatMap { channel.latestWrites[$0] ?? [] }
            if !replayed.isEmpty { subscriber.yield(replayed) }
            if !channel.latestWrites.isEmpty { channel.holdingWrites.insert(channels.nextID) }
            channel.subscribers[channels.nextID] = subscriber
            channels.byKey[key] = channel
            return channels.nextID
        }
        subscriber.onTermination = { [weak self] _ in self?.leave(key, id) }
        return stream
    }

    private func follow(_ key: ResourceKey, _ states: AsyncStream<ResourceState<Representation>>) -> Task<Void, Never> {
        Task { [weak self] in
            for await state in states {
                let event = ResourceStateJSON.event(state)
                guard let self else { return }
                self.channels.withLock { channels in
                    channels.byKey[key]?.latest = event
                    channels.byKey[key]?.broadcast(event, isWrite: false)
                }
            }
        }
    }

    private func followWrites(
        _ key: ResourceKey, _ events: AsyncStream<WriteEvent<Representation>>
    ) -> Task<Void, Never> {
        Task { [weak self] in
            for await change in events {
                let event = WriteStateJSON.event(change)
                guard let self else { return }
                self.channels.withLock { channels in
                    channels.byKey[key]?.latestWrites[change.kind] = event
                    channels.byKey[key]?.broadcast(event, isWrite: true)
                }
            }
        }
    }

    private func beat(_ key: ResourceKey) -> Task<Void, Never> {
        let clock = clock
        let interval = heartbeat
        return Task { [weak self] in
            while (try? await clock.sleep(until: clock.now.addingTimeInterval(interval))) != nil {
                guard let self else { return }
                self.channels.withLock { channels in
                    for subscriber in channels.byKey[key]?.subscribers.values ?? [:].values {
                        // A ping that pushed out an unread state gives its place back to it.
                        if case .dropped(let unread) = subscriber.yield(Self.ping), unread != Self.ping {
                            subscriber.yield(unread)
                        }
                    }
                }
            }
        }
    }

    private func leave(_ key: ResourceKey, _ id: UInt64) {
        let ended: [Task<Void, Never>] = channels.withLock { channels in
            channels.byKey[key]?.subscribers[id] = nil
            channels.byKey[key]?.holdingWrites.remove(id)
            guard let channel = channels.byKey[key], channel.subscribers.isEmpty else { return [] }
            channels.byKey[key] = nil
            return channel.tasks
        }
        for task in ended { task.cancel() }
    }
}
