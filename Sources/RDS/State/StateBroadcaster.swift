import Synchronization

/// Fans the states of one resource out to any number of subscribers.
///
/// A new subscriber first receives the current state, then every later state, in order, exactly
/// once. Each subscriber has its own bounded buffer (`bufferingNewest`): a subscriber that reads
/// slowly loses intermediate states but always ends on the newest one, and never holds up
/// ``publish(_:)`` or the other subscribers. A subscriber is released as soon as its stream is
/// dropped or the task iterating it is cancelled.
public final class StateBroadcaster<Value: Sendable>: Sendable {
    private typealias Continuation = AsyncStream<ResourceState<Value>>.Continuation

    private struct State {
        var current: ResourceState<Value>
        var subscribers: [UInt64: Continuation] = [:]
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>
    /// How many states each subscriber buffers before the oldest unread one is dropped.
    public let bufferSize: Int

    /// Creates a broadcaster.
    /// - Parameters:
    ///   - initial: The state replayed to the first subscribers.
    ///   - bufferSize: The per-subscriber buffer (at least 1).
    public init(initial: ResourceState<Value> = .initialized, bufferSize: Int = 16) {
        state = Mutex(State(current: initial))
        self.bufferSize = max(1, bufferSize)
    }

    /// The latest state.
    public var current: ResourceState<Value> { state.withLock { $0.current } }

    /// The number of live subscribers.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Subscribes: the stream yields the current state first, then each published state.
    public func subscribe() -> AsyncStream<ResourceState<Value>> { subscribe(onRelease: nil) }

    /// Subscribes, calling `onRelease` (outside any lock) once the subscriber has gone away.
    func subscribe(onRelease: (@Sendable () -> Void)?) -> AsyncStream<ResourceState<Value>> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: ResourceState<Value>.self, bufferingPolicy: .bufferingNewest(bufferSize))
        let id: UInt64 = state.withLock { state in
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            continuation.yield(state.current)
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.remove(id)
            onRelease?()
        }
        return stream
    }

    /// Makes `newState` current and delivers it to every subscriber without waiting for any of them.
    public func publish(_ newState: ResourceState<Value>) {
        state.withLock { state in
            state.current = newState
            for continuation in state.subscribers.values { continuation.yield(newState) }
        }
    }

    /// `true` when nobody listens and no fetch is under way, so the broadcaster can be dropped.
    var isIdle: Bool {
        state.withLock { state in
            guard state.subscribers.isEmpty else { return false }
            if case .loading = state.current { return false }
            return true
        }
    }

    private func remove(_ id: UInt64) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }
}
