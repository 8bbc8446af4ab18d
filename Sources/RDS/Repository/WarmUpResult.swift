/// The result of warming up one key (see ``Repository/warmUp(_:)``).
public struct WarmUpResult: Sendable {
    /// The key, as `String(describing:)` renders it.
    public let key: String
    /// How the value was obtained, or why it could not be.
    public let outcome: Result<CacheStatus, RepositoryError>

    /// Creates a result.
    public init(key: String, outcome: Result<CacheStatus, RepositoryError>) {
        self.key = key
        self.outcome = outcome
    }

    /// `true` when the key now has a value.
    public var succeeded: Bool {
        if case .success = outcome { return true }
        return false
    }
}
