import Synchronization

/// A one-shot wake-up: ``wait()`` returns once ``fire()`` was called, before or after.
final class AnnouncementSignal: Sendable {
    private let state = Mutex<(fired: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))

    /// Wakes the waiter (now, or as soon as it waits).
    func fire() {
        let continuation = state.withLock { state in
            defer { state = (true, nil) }
            return state.continuation
        }
        continuation?.resume()
    }

    /// Returns once fired.
    func wait() async {
        await withCheckedContinuation { continuation in
            let fired = state.withLock { state in
                if !state.fired { state.continuation = continuation }
                return state.fired
            }
            if fired { continuation.resume() }
        }
    }
}
