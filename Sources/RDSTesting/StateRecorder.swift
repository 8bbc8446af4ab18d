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
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
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

    /// Waits until `count` states have arrived after those already returned by earlier calls, and returns them.
    public func next(_ count: Int) async -> [ResourceState<Value>] {
        let target = state.withLock { $0.consumed + count }
        await withCheckedContinuation { continuation in
            let reached = state.withLock { state in
                if state.states.count >= target { return true }
                state.waiters.append((target, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
        return state.withLock { state in
            defer { state.consumed = target }
            return Array(state.states[state.consumed..<target])
        }
    }

    private func record(_ next: ResourceState<Value>) {
        let woken = state.withLock { state in
            state.states.append(next)
            let due = state.waiters.filter { $0.count <= state.states.count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= state.states.count }
            return due
        }
        for waiter in woken { waiter.resume() }
    }

    /// Stops reading, releasing the subscription.
    public func cancel() { task.withLock { $0?.cancel() } }
}
