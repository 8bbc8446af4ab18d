import Synchronization

/// Holds scripted calls of a ``FakeService`` until the test opens it, so tests can arrange
/// concurrent situations deterministically.
///
/// ```swift
/// let gate = FakeGate()
/// service.expectGet("london", returning: .fetched(...), heldBy: gate)
/// let task = Task { try await repository.get("london") }
/// await gate.waitForArrivals(1)   // the call has reached the service
/// gate.open()                     // let it answer
/// ```
/// A held call whose task is cancelled leaves the gate at once and counts as a cancellation.
public final class FakeGate: Sendable {
    private typealias Waiter = (count: Int, continuation: CheckedContinuation<Void, Never>)

    private struct State {
        var isOpen = false
        var arrivals = 0
        var cancellations = 0
        var held: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextID: UInt64 = 0
        var arrivalWaiters: [Waiter] = []
        var cancellationWaiters: [Waiter] = []

        mutating func dueWaiters() -> [CheckedContinuation<Void, Never>] {
            let (arrivals, cancellations) = (self.arrivals, self.cancellations)
            let due = arrivalWaiters.filter { $0.count <= arrivals } + cancellationWaiters.filter { $0.count <= cancellations }
            arrivalWaiters.removeAll { $0.count <= arrivals }
            cancellationWaiters.removeAll { $0.count <= cancellations }
            return due.map(\.continuation)
        }
    }

    private let state = Mutex(State())

    /// Creates a closed gate.
    public init() {}

    /// The number of calls that have reached the gate.
    public var arrivals: Int { state.withLock { $0.arrivals } }

    /// The number of held calls that left because their task was cancelled.
    public var cancellations: Int { state.withLock { $0.cancellations } }

    /// Opens the gate: every held call and every later one passes.
    public func open() {
        let held = state.withLock { state in
            state.isOpen = true
            defer { state.held = [:] }
            return state.held.values
        }
        for continuation in held { continuation.resume() }
    }

    /// Returns once `count` calls have reached the gate.
    public func waitForArrivals(_ count: Int) async {
        await wait { state, continuation in
            guard state.arrivals < count else { return true }
            state.arrivalWaiters.append((count, continuation))
            return false
        }
    }

    /// Returns once `count` held calls have been cancelled.
    public func waitForCancellations(_ count: Int) async {
        await wait { state, continuation in
            guard state.cancellations < count else { return true }
            state.cancellationWaiters.append((count, continuation))
            return false
        }
    }

    /// Called by the fake service: records the arrival and suspends until the gate is open or the
    /// calling task is cancelled.
    func pass() async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let (passNow, woken) = state.withLock { state in
                    state.arrivals += 1
                    let passNow = state.isOpen || Task.isCancelled
                    if !passNow { state.held[id] = continuation }
                    if Task.isCancelled { state.cancellations += 1 }
                    return (passNow, state.dueWaiters())
                }
                woken.forEach { $0.resume() }
                if passNow { continuation.resume() }
            }
        } onCancel: {
            let (held, woken): (CheckedContinuation<Void, Never>?, [CheckedContinuation<Void, Never>]) =
                state.withLock { state in
                    guard let held = state.held.removeValue(forKey: id) else { return (nil, []) }
                    state.cancellations += 1
                    return (held, state.dueWaiters())
                }
            woken.forEach { $0.resume() }
            held?.resume()
        }
    }

    private func wait(_ register: (inout State, CheckedContinuation<Void, Never>) -> Bool) async {
        await withCheckedContinuation { continuation in
            if state.withLock({ register(&$0, continuation) }) { continuation.resume() }
        }
    }
}
