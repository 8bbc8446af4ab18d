import Synchronization

/// The broadcasters of one repository, one per key, kept only while they are needed, and the
/// last failure of each key, remembered until it is resolved.
///
/// A broadcaster lives while it has subscribers; once idle it is dropped, so memory does not grow
/// with the number of keys ever read. A key loading that nobody subscribes to keeps only its
/// `.loading` state (a broadcaster starting from it is made when someone subscribes): most fetches
/// are watched by nobody, and make and destroy no broadcaster. The state of a key with neither is
/// its *resting state*: its last `.failed` state while that failure is
/// remembered, otherwise what the caller computes (for example from the datastore).
///
/// A `.failed` state is remembered until a later state other than `.loading` is published for its
/// key (a successful load, a write, a purge). At most `maxRememberedFailures` are kept; beyond
/// that the least recently failed key is forgotten first.
public final class StateBroadcasterRegistry<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Registry {
        var entries: [Key: Entry] = [:]
        /// The last `.failed` state of each key whose failure is not resolved yet.
        var failures = LRUTable<Key, ResourceState<Value>>()
    }

    /// What the registry holds for a key with subscribers or a fetch under way.
    private enum Entry {
        /// The key's broadcaster: it has subscribers (and may be loading too).
        case broadcaster(StateBroadcaster<Value>)
        /// The `.loading` state of a key that nobody subscribes to.
        case loading(ResourceState<Value>)

        var current: ResourceState<Value> {
            switch self {
            case .broadcaster(let broadcaster): broadcaster.current
            case .loading(let state): state
            }
        }
    }

    private let registry = Mutex(Registry())
    /// Called with every published state, under the registry's lock (so in publishing order).
    private let observers = Mutex<[@Sendable (Key, ResourceState<Value>) -> Void]>([])
    /// Asked by ``isWatched(_:)`` whether an observer wants the states of a key.
    private let interests = Mutex<[@Sendable (Key) -> Bool]>([])
    /// Called with every transition event announced, under the registry's lock.
    private let transitionObservers = Mutex<[@Sendable (Key, TransitionEvent) -> Void]>([])
    /// The buffer size given to each new broadcaster.
    public let bufferSize: Int
    /// The bound on the number of keys whose last failure is remembered.
    public let maxRememberedFailures: Int

    /// Creates an empty registry.
    /// - Parameters:
    ///   - bufferSize: The states each subscriber buffers.
    ///   - maxRememberedFailures: How many keys' last failures are remembered (a negative value counts as 0).
    public init(bufferSize: Int = 16, maxRememberedFailures: Int = 256) {
        self.bufferSize = bufferSize
        self.maxRememberedFailures = max(0, maxRememberedFailures)
    }

    /// The number of keys with a live broadcaster or a fetch under way.
    public var count: Int { registry.withLock { $0.entries.count } }

    /// The number of keys whose last failure is remembered.
    public var rememberedFailureCount: Int { registry.withLock { $0.failures.count } }

    /// The number of subscribers of `key`.
    public func subscriberCount(for key: Key) -> Int {
        registry.withLock { registry in
            guard case .broadcaster(let broadcaster) = registry.entries[key] else { return 0 }
            return broadcaster.subscriberCount
        }
    }

    /// The current state of `key`: its broadcaster's, else its remembered failure; `nil` when it
    /// has neither (it is at rest).
    public func current(of key: Key) -> ResourceState<Value>? {
        registry.withLock { registry in
            registry.entries[key]?.current ?? registry.failures.value(for: key, markUsed: false)
        }
    }

    /// Subscribes to `key`; a new broadcaster starts from the key's `.loading` state, else from the
    /// remembered failure, else from `restingState()`.
    public func subscribe(
        to key: Key, restingState: () -> ResourceState<Value>
    ) -> AsyncStream<ResourceState<Value>> {
        let resting = restingState()
        return registry.withLock { registry in
            let broadcaster: StateBroadcaster<Value>
            switch registry.entries[key] {
            case .broadcaster(let existing):
                broadcaster = existing
            case .loading(let state):
                broadcaster = StateBroadcaster(initial: state, bufferSize: bufferSize)
            case nil:
                let initial = registry.failures.value(for: key, markUsed: false) ?? resting
                broadcaster = StateBroadcaster(initial: initial, bufferSize: bufferSize)
            }
            registry.entries[key] = .broadcaster(broadcaster)
            return broadcaster.subscribe { [weak self, weak broadcaster] in
                guard let self, let broadcaster else { return }
                self.dropIfIdle(key, broadcaster)
            }
        }
    }

    /// Calls `observer` with every state published from now on, of every key, in publishing order
    /// (`publishToAll` reports it for each key with a broadcaster or a fetch under way). The observer runs under
    /// the registry's lock: it must be quick and never call back into the registry.
    /// - Parameter wants: Whether the observer wants the states of a key now (see ``isWatched(_:)``);
    ///   by default it wants every key's.
    public func observe(
        _ observer: @escaping @Sendable (Key, ResourceState<Value>) -> Void,
        wants: @escaping @Sendable (Key) -> Bool = { _ in true }
    ) {
        registry.withLock { _ in
            observers.withLock { $0.append(observer) }
            interests.withLock { $0.append(wants) }
        }
    }

    /// Whether a state published for `key` now would matter to anyone: `key` has subscribers or a
    /// fetch of it is under way, a remembered failure (which the next state
    /// resolves), or an observer that wants its states. A read that may skip publishing asks this
    /// first (see ``Repository/get(_:intent:)``).
    public func isWatched(_ key: Key) -> Bool {
        registry.withLock { registry in
            if registry.entries[key] != nil || registry.failures.value(for: key, markUsed: false) != nil {
                return true
            }
            return interests.withLock { $0 }.contains { $0(key) }
        }
    }

    /// Calls `observer` with every transition event announced from now on (see ``announce(_:for:)``).
    public func observeTransitions(_ observer: @escaping @Sendable (Key, TransitionEvent) -> Void) {
        registry.withLock { _ in transitionObservers.withLock { $0.append(observer) } }
    }

    /// Announces `event` for `key` to the transition observers, in order with the published states.
    public func announce(_ event: TransitionEvent, for key: Key) {
        registry.withLock { _ in
            for observer in transitionObservers.withLock({ $0 }) { observer(key, event) }
        }
    }

    /// Publishes `state` for `key`; a broadcaster that is idle afterwards is dropped, and none is
    /// created when nobody listens (a `.loading` state is kept as the key's entry). A `.failed`
    /// state is remembered; any other state but `.loading` forgets the key's failure.
    public func publish(_ state: ResourceState<Value>, for key: Key) {
        registry.withLock { registry in
            switch state {
            case .failed:
                registry.failures.setValue(state, cost: 1, for: key)
                while registry.failures.count > maxRememberedFailures { registry.failures.removeOldest() }
            case .loading:
                break
            case .initialized, .loaded:
                registry.failures.removeValue(for: key)
            }
            for observer in observers.withLock({ $0 }) { observer(key, state) }
            Self.publish(state, to: &registry.entries[key])
        }
    }

    /// Publishes `state` to every key with a broadcaster or a fetch under way (for example
    /// `.initialized` after a purge of everything) and forgets every remembered failure.
    public func publishToAll(_ state: ResourceState<Value>) {
        registry.withLock { registry in
            registry.failures.removeAll()
            let observers = observers.withLock { $0 }
            for key in Array(registry.entries.keys) {
                for observer in observers { observer(key, state) }
                Self.publish(state, to: &registry.entries[key])
            }
        }
    }

    /// Publishes `state` to a key's `entry`, which is then its broadcaster unless idle afterwards,
    /// else `state` when loading, else none.
    private static func publish(_ state: ResourceState<Value>, to entry: inout Entry?) {
        if case .broadcaster(let broadcaster) = entry {
            broadcaster.publish(state)
            if !broadcaster.isIdle { return }
        }
        if case .loading = state {
            entry = .loading(state)
        } else {
            entry = nil
        }
    }

    private func dropIfIdle(_ key: Key, _ broadcaster: StateBroadcaster<Value>) {
        registry.withLock { registry in
            if case .broadcaster(let current) = registry.entries[key], current === broadcaster, broadcaster.isIdle {
                registry.entries[key] = nil
            }
        }
    }
}
