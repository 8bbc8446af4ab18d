import Foundation
import Synchronization

/// The demo upstream's switchable faults (fail with a status, answer slowly) and its call counter.
final class DemoFaults: Sendable {
    private struct State {
        var failStatus: Int?
        var failUntil: Date?
        var delay: TimeInterval = 0
        var delayUntil: Date?
        var requests = 0
    }

    private let state = Mutex(State())

    /// Makes every resource answer `status` until `until` (or until ``recover()``).
    func fail(status: Int, until: Date?) {
        state.withLock {
            $0.failStatus = status
            $0.failUntil = until
        }
    }

    /// Makes every resource wait `seconds` before answering until `until` (or until ``recover()``).
    func slow(by seconds: TimeInterval, until: Date?) {
        state.withLock {
            $0.delay = seconds
            $0.delayUntil = until
        }
    }

    /// Switches every fault off.
    func recover() {
        state.withLock {
            $0.failStatus = nil
            $0.delay = 0
        }
    }

    /// Counts one resource request and returns the faults in force at `now`.
    func recordRequest(at now: Date) -> (failStatus: Int?, delay: TimeInterval) {
        state.withLock { state in
            state.requests += 1
            if let until = state.failUntil, now >= until { state.failStatus = nil }
            if let until = state.delayUntil, now >= until { state.delay = 0 }
            return (state.failStatus, state.delay)
        }
    }

    /// The counters and switches, as JSON for `GET /__demo/stats`.
    func snapshot(at now: Date) -> [String: Any] {
        state.withLock { state in
            let failing = state.failStatus != nil && (state.failUntil.map { now < $0 } ?? true)
            let slow = state.delay > 0 && (state.delayUntil.map { now < $0 } ?? true)
            return [
                "requests": state.requests, "failing": failing, "failStatus": failing ? state.failStatus ?? 0 : 0,
                "delayMilliseconds": slow ? Int(state.delay * 1000) : 0,
            ]
        }
    }
}
