/// One warm-up key that could not be loaded, as `/health/ready` lists it.
public struct WarmUpFailure: Sendable, Hashable, Encodable {
    /// The repository's name.
    public var repository: String
    /// The key, as the warm-up log line shows it.
    public var key: String
    /// The error code, the one a request for that key would answer with (e.g. `unavailable`, `timeout`).
    public var error: String

    /// Creates a failure.
    public init(repository: String, key: String, error: String) {
        self.repository = repository
        self.key = key
        self.error = error
    }
}
