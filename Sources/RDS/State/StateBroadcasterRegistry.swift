import Synchronization

/// The broadcasters of one repository, one per key, kept only while they are needed.
///
/// A broadcaster lives while it has subscribers or its resource is loading; once idle it is
/// dropped, so memory does not grow with the number of keys ever read. The state of a key without
/// a broadcaster is its *resting state*, computed by the caller (for example from the datastore).
public final class StateBroadcasterRegistry<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let broadcasters = Mutex<[Key: StateBroadcaster<Value>]>([:])
    /// The buffer size given to each new broadcaster.
    public let bufferSize: Int

    /// Creates an empty registry whose broadcasters buffer `bufferSize` states per subscriber.
    public init(bufferSize: Int = 16) {
        self.bufferSize = bufferSize
    }

    /// The number of live broadcasters.
    public var count: Int { broadcasters.withLock { $0.count } }

    /// The number of subscribers of `key`.
    public func subscriberCount(for key: Key) -> Int {
        broadcasters.withLock { $0[key]?.subscriberCount ?? 0 }
    }

    /// The current state of `key`, or `nil` when it has no broadcaster (it is at rest).
    public func current(of key: Key) -> ResourceState<Value>? {
        broadcasters.withLock { $0[key]?.current }
    }

    /// Subscribes to `key`; a new broadcaster starts from `restingState()`.
    public func subscribe(
        to key: Key, restingState: () -> ResourceState<Value>
    ) -> AsyncStream<ResourceState<Value>> {
        broadcasters.withLock { broadcasters in
            let broadcaster = broadcasters[key] ?? StateBroadcaster(initial: restingState(), bufferSize: bufferSize)
            broadcasters[key] = broadcaster
            return broadcaster.subscribe { [weak self, weak broadcaster] in
                guard let self, let broadcaster else { return }
                self.dropIfIdle(key, broadcaster)
            }
        }
    }

    /// Publishes `state` for `key`; a broadcaster that is idle afterwards is dropped, and none is
    /// created for a state other than `.loading` when nobody listens.
    public func publish(_ state: ResourceState<Value>, for key: Key) {
        broadcasters.withLock { broadcasters in
            if let broadcaster = broadcasters[key] {
                broadcaster.publish(state)
                if broadcaster.isIdle { broadcasters[key] = nil }
            } else if case .loading = state {
                broadcasters[key] = StateBroadcaster(initial: state, bufferSize: bufferSize)
            }
        }
    }

    /// Publishes `state` to every live broadcaster (for example `.initialized` after a purge of everything).
    public func publishToAll(_ state: ResourceState<Value>) {
        broadcasters.withLock { broadcasters in
            for (key, broadcaster) in broadcasters {
                broadcaster.publish(state)
                if broadcaster.isIdle { broadcasters[key] = nil }
            }
        }
    }

    private func dropIfIdle(_ key: Key, _ broadcaster: StateBroadcaster<Value>) {
        broadcasters.withLock { broadcasters in
            if broadcasters[key] === broadcaster && broadcaster.isIdle { broadcasters[key] = nil }
        }
    }
}
