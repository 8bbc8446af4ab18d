import Foundation
import Synchronization

/// A timer service on the injected clock: a ``TimerHeap`` driven by a single task that sleeps
/// until the earliest deadline. The process's background refreshes share one; each repository
/// store has one for its fetch deadlines.
///
/// There is no task or thread per timer: 100,000 scheduled keys cost one sleeping task and a
/// heap entry each, and no CPU until one is due. An earlier timer re-arms the sleeper; due
/// actions run outside the lock, in the order of their deadlines, and must return quickly
/// (start work in a task of their own).
public final class RefreshScheduler: Sendable {
    /// An action run when its timer is due.
    public typealias Action = @Sendable () -> Void

    private struct State {
        var heap = TimerHeap()
        var actions: [UInt64: Action] = [:]
        var armedDeadline: Date?
        var armed: Task<Void, Never>?
        var stopped = false
    }

    private let state = Mutex(State())
    /// The clock every deadline is read on.
    public let clock: any ClockProvider

    /// Creates a scheduler on `clock`.
    public init(clock: any ClockProvider) { self.clock = clock }

    /// The number of timers waiting.
    public var count: Int { state.withLock { $0.heap.count } }

    /// The deadline the sleeping task waits for, if any (for tests and idle measurements).
    public var armedDeadline: Date? { state.withLock { $0.armedDeadline } }

    /// Runs `action` once `deadline` has passed on the clock.
    /// - Returns: The timer's identifier, for ``cancel(_:)``.
    @discardableResult
    public func schedule(at deadline: Date, _ action: @escaping Action) -> UInt64 {
        state.withLock { state in
            let id = state.heap.insert(deadline)
            state.actions[id] = action
            arm(&state)
            return id
        }
    }

    /// Cancels the timer `id`; does nothing when it has run or was cancelled.
    public func cancel(_ id: UInt64) {
        state.withLock { state in
            guard state.actions.removeValue(forKey: id) != nil else { return }
            state.heap.cancel(id)
        }
    }

    /// Cancels every timer and the sleeping task; later schedules are ignored.
    public func stop() {
        let armed: Task<Void, Never>? = state.withLock { state in
            state.stopped = true
            state.actions.removeAll()
            state.heap = TimerHeap()
            state.armedDeadline = nil
            defer { state.armed = nil }
            return state.armed
        }
        armed?.cancel()
    }

    /// Makes the sleeping task wait for the earliest deadline, replacing it when it waits for a later one.
    private func arm(_ state: inout State) {
        guard !state.stopped, let earliest = state.heap.earliestDeadline() else { return }
        if let armed = state.armedDeadline, armed <= earliest { return }
        state.armed?.cancel()
        state.armedDeadline = earliest
        let clock = clock
        state.armed = Task { [weak self] in
            guard (try? await clock.sleep(until: earliest)) != nil else { return }
            self?.fireDue(armedFor: earliest)
        }
    }

    private func fireDue(armedFor deadline: Date) {
        let due: [Action] = state.withLock { state in
            guard state.armedDeadline == deadline else { return [] }
            state.armedDeadline = nil
            state.armed = nil
            let actions = state.heap.popDue(at: clock.now).compactMap { state.actions.removeValue(forKey: $0) }
            arm(&state)
            return actions
        }
        for action in due { action() }
    }
}
