import Synchronization

/// The write and delete process states of one repository's resources, and their subscribers.
///
/// A key's states are remembered after its last subscriber has gone, for at most
/// `maxRememberedKeys` keys (the least recently written are forgotten first and read as
/// `.initial` again). A subscriber first receives the key's states that are not `.initial`, then
/// every change; each buffers `bufferSize` events and a slow one skips to the newest.
public final class WriteStateRegistry<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private typealias Continuation = AsyncStream<WriteEvent<Value>>.Continuation

    private struct Registry {
        var states = LRUTable<Key, [WriteKind: WriteState<Value>]>()
        var subscribers: [Key: [UInt64: Continuation]] = [:]
        var nextID: UInt64 = 0
    }

    private let registry = Mutex(Registry())
    /// Called with every published event, under the registry's lock (so in publishing order).
    private let observers = Mutex<[@Sendable (Key, WriteEvent<Value>) -> Void]>([])
    /// How many keys' states are remembered.
    public let maxRememberedKeys: Int
    /// How many events each subscriber buffers.
    public let bufferSize: Int

    /// Creates an empty registry.
    /// - Parameters:
    ///   - maxRememberedKeys: The bound on remembered keys (at least 1).
    ///   - bufferSize: The events each subscriber buffers (at least 1).
    public init(maxRememberedKeys: Int = 1_024, bufferSize: Int = 16) {
        self.maxRememberedKeys = max(1, maxRememberedKeys)
        self.bufferSize = max(1, bufferSize)
    }

    /// The number of keys whose states are remembered.
    public var count: Int { registry.withLock { $0.states.count } }

    /// The `kind` process state of `key`; `.initial` when none is remembered.
    public func current(_ kind: WriteKind, of key: Key) -> WriteState<Value> {
        registry.withLock { $0.states.value(for: key, markUsed: false)?[kind] } ?? .initial
    }

    /// Calls `observer` with every event published from now on, of every key, in publishing order.
    /// The observer runs under the registry's lock: it must be quick and never call back into it.
    public func observe(_ observer: @escaping @Sendable (Key, WriteEvent<Value>) -> Void) {
        registry.withLock { _ in observers.withLock { $0.append(observer) } }
    }

    /// Makes `state` the `kind` process state of `key` and delivers it to the key's subscribers.
    public func publish(_ state: WriteState<Value>, _ kind: WriteKind, for key: Key) {
        registry.withLock { registry in
            var states = registry.states.value(for: key, markUsed: true) ?? [:]
            states[kind] = state
            registry.states.setValue(states, cost: 1, for: key)
            while registry.states.count > maxRememberedKeys { registry.states.removeOldest() }
            let event = WriteEvent(kind: kind, state: state)
            for observer in observers.withLock({ $0 }) { observer(key, event) }
            for continuation in registry.subscribers[key]?.values ?? [:].values { continuation.yield(event) }
        }
    }

    /// The events of `key`: its states other than `.initial` first (write, then delete), then each change.
    public func subscribe(to key: Key) -> AsyncStream<WriteEvent<Value>> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: WriteEvent<Value>.self, bufferingPolicy: .bufferingNewest(bufferSize))
        let id: UInt64 = registry.withLock { registry in
            registry.nextID += 1
            registry.subscribers[key, default: [:]][registry.nextID] = continuation
            let states = registry.states.value(for: key, markUsed: false) ?? [:]
            for kind in WriteKind.allCases {
                guard let state = states[kind] else { continue }
                if case .initial = state { continue }
                continuation.yield(WriteEvent(kind: kind, state: state))
            }
            return registry.nextID
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id, of: key) }
        return stream
    }

    private func remove(_ id: UInt64, of key: Key) {
        registry.withLock { registry in
            registry.subscribers[key]?[id] = nil
            if registry.subscribers[key]?.isEmpty == true { registry.subscribers[key] = nil }
        }
    }
}
