import Foundation
import RDS
import Synchronization

/// The Server-Sent Events of every watched resource, rendered once per state and shared by all of
/// its subscribers.
///
/// One task per watched key follows the repository's states and renders each into one byte
/// array; every subscriber's stream receives that same array (no per-subscriber copy) and buffers
/// at most one event (`bufferingNewest(1)`): a subscriber that falls behind skips to the newest
/// state. A `: ping` comment every ``heartbeat`` seconds keeps idle proxies from closing the
/// stream; it never displaces a state the subscriber has not read yet. Subscribers that stay
/// behind are closed by the HTTP server (`limits.maxStreamLag`). A key's task stops when its
/// last subscriber leaves.
final class EventFanOut: Sendable {
    private typealias Subscriber = AsyncStream<[UInt8]>.Continuation

    private struct Channel {
        var subscribers: [UInt64: Subscriber] = [:]
        /// The newest rendered state, replayed to a subscriber that joins.
        var latest: [UInt8]?
        var tasks: [Task<Void, Never>] = []
    }

    private struct Channels {
        var byKey: [ResourceKey: Channel] = [:]
        var nextID: UInt64 = 0
    }

    /// The heartbeat comment.
    static let ping: [UInt8] = Array(": ping\n\n".utf8)

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

    /// The events of `key`: its newest state first, then each change; `states` is called to
    /// start following the key when nobody watches it yet.
    func subscribe(to key: ResourceKey, states: () -> AsyncStream<ResourceState<Representation>>)
        -> AsyncStream<[UInt8]>
    {
        let (stream, subscriber) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(1))
        // `states()` only peeks at the memory level; starting it under the lock means two first
        // subscribers cannot both start a channel.
        let id: UInt64 = channels.withLock { channels in
            channels.nextID += 1
            var channel = channels.byKey[key] ?? Channel()
            if channel.tasks.isEmpty { channel.tasks = [follow(key, states()), beat(key)] }
            if let latest = channel.latest { subscriber.yield(latest) }
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
                    for subscriber in channels.byKey[key]?.subscribers.values ?? [:].values { subscriber.yield(event) }
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
            guard let channel = channels.byKey[key], channel.subscribers.isEmpty else { return [] }
            channels.byKey[key] = nil
            return channel.tasks
        }
        for task in ended { task.cancel() }
    }
}
