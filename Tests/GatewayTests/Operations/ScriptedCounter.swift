import Synchronization

/// Hands out 0, 1, 2, … to concurrent callers.
final class ScriptedCounter: Sendable {
    private let count = Mutex(0)

    func next() -> Int {
        count.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
