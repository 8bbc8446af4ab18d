import Synchronization

/// Holds scripted calls of a ``FakeService`` until the test opens it, so tests can arrange
/// concurrent situations deterministically.
///
/// ```swift
/// let gate = FakeGate()
/// service.expectGet("london", returning: .fetched(...), heldBy: gate)
/// let task = Task { try await repository.get("london") }
/// await gate.waitForArrivals(1)   // the call is held at the service
/// gate.open()                     // let it answer
/// ```
/// A held call whose task is cancelled leaves the gate at once and counts as a cancellation.
public final class FakeGate: Sendable {
    private struct State {
        var isOpen = false
        var held: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())
    private let arrived = CountLatch()
    private let cancelled = CountLatch()

    /// Creates a closed gate.
    public init() {}

    /// The number of calls that have reached the gate.
    public var arrivals: Int { arrived.count }

    /// The number of held calls that left because their task was cancelled.
    public var cancellations: Int { cancelled.count }

    /// Opens the gate: every held call and every later one passes.
    public func open() {
        let held = state.withLock { state in
            state.isOpen = true
            defer { state.held = [:] }
            return state.held.values
        }
        for continuation in held { continuation.resume() }
    }

    /// Returns once `count` calls have reached the gate (or the waiting task is cancelled).
    public func waitForArrivals(_ count: Int) async { await arrived.wait(until: count) }

    /// Returns once `count` held calls have been cancelled (or the waiting task is cancelled).
    public func waitForCancellations(_ count: Int) async { await cancelled.wait(until: count) }

    /// Called by a fake (a service, a test server): records the arrival and suspends until the
    /// gate is open or the calling task is cancelled.
    public func pass() async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let (passNow, cancelledNow) = state.withLock { state in
                    let passNow = state.isOpen || Task.isCancelled
                    if !passNow { state.held[id] = continuation }
                    return (passNow, Task.isCancelled)
                }
                arrived.increment()
                if cancelledNow { cancelled.increment() }
                if passNow { continuation.resume() }
            }
        } onCancel: {
            guard let held = state.withLock({ $0.held.removeValue(forKey: id) }) else { return }
            cancelled.increment()
            held.resume()
        }
    }
}
