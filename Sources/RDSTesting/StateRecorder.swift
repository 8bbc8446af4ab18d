import RDS
import Synchronization

/// Collects the states of a stream so a test can await an exact number of them without sleeping.
///
/// ```swift
/// let recorder = StateRecorder(repository.states(of: "london"))
/// _ = try await repository.get("london")
/// let states = await recorder.next(3)
/// #expect(states.map(\.summary) == ["initialized", "loading(nil)", "loaded(london-1, service)"])
/// ```
public final class StateRecorder<Value: Sendable>: Sendable {
    private struct State {
        var states: [ResourceState<Value>] = []
        var consumed = 0
    }

    private let state = Mutex(State())
    private let received = CountLatch()
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Starts reading `stream` in a task of its own.
    public init(_ stream: AsyncStream<ResourceState<Value>>) {
        let reader = Task { [weak self] in
            for await next in stream {
                self?.record(next)
            }
        }
        task.withLock { $0 = reader }
    }

    deinit { task.withLock { $0?.cancel() } }

    /// Every state received so far.
    public var states: [ResourceState<Value>] { state.withLock { $0.states } }

    /// Waits until `count` states have arrived after those returned by earlier calls, and returns
    /// them; returns fewer when the waiting task is cancelled first (a test's time limit).
    public func next(_ count: Int) async -> [ResourceState<Value>] {
        let target = state.withLock { $0.consumed + count }
        await received.wait(until: target)
        return state.withLock { state in
            let end = min(target, state.states.count)
            defer { state.consumed = end }
            return Array(state.states[state.consumed..<end])
        }
    }

    /// Stops reading, releasing the subscription.
    public func cancel() { task.withLock { $0?.cancel() } }

    private func record(_ next: ResourceState<Value>) {
        state.withLock { $0.states.append(next) }
        received.increment()
    }
}
