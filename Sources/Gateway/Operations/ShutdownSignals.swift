import Foundation
import Synchronization

/// Turns SIGTERM and SIGINT into a graceful shutdown: the first signal resumes ``first()`` so
/// the caller can drain in-flight requests; a second signal ends the process at once with
/// status 128 + the signal number (143 for SIGTERM, 130 for SIGINT).
public final class ShutdownSignals: Sendable {
    private let state = Mutex(State())

    private struct State {
        var received: [Int32] = []
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    /// Starts listening: the signals no longer stop the process by themselves.
    /// - Parameters:
    ///   - signals: The signals to handle.
    ///   - onSecondSignal: Called just before the immediate exit, e.g. to log it.
    public init(signals: [Int32] = [SIGTERM, SIGINT], onSecondSignal: @escaping @Sendable (Int32) -> Void = { _ in }) {
        SignalRelay.listen(to: signals) { [weak self] number in
            self?.receive(number, onSecondSignal: onSecondSignal)
        }
    }

    /// Waits for the first signal and returns its number (at once when one already came).
    public func first() async -> Int32 {
        await withCheckedContinuation { continuation in
            let received = state.withLock { state in
                if let first = state.received.first { return first as Int32? }
                state.waiters.append(continuation)
                return nil
            }
            if let received { continuation.resume(returning: received) }
        }
    }

    private func receive(_ number: Int32, onSecondSignal: @Sendable (Int32) -> Void) {
        let (count, waiters) = state.withLock { state in
            state.received.append(number)
            defer { state.waiters = [] }
            return (state.received.count, state.waiters)
        }
        if count > 1 {
            onSecondSignal(number)
            _exit(128 + number)
        }
        for waiter in waiters { waiter.resume(returning: number) }
    }
}
