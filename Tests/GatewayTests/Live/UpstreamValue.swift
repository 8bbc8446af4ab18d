import Synchronization

/// A value the fake upstream serves, changed by the test directly at the source.
final class UpstreamValue: Sendable {
    private let current: Mutex<String>

    init(_ value: String) { current = Mutex(value) }

    /// The value served now.
    var value: String {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
