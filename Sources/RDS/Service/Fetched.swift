/// A value the service fetched, with what the upstream said about caching it.
public struct Fetched<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// How long it may be cached.
    public var freshness: Freshness
    /// Its validators.
    public var validators: Validators

    /// Creates a fetched value.
    public init(value: Value, freshness: Freshness = Freshness(), validators: Validators = Validators()) {
        self.value = value
        self.freshness = freshness
        self.validators = validators
    }
}
