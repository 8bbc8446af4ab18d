/// The answer of ``Service/get(_:ifChangedFrom:)``.
public enum ServiceResponse<Value: Sendable>: Sendable {
    /// A new value.
    case fetched(Fetched<Value>)
    /// The stored value is still current (a conditional request answered "not modified"); the
    /// entry is renewed with this freshness and, where present, these validators.
    case notModified(Freshness, Validators)
    /// The stored value is still current, and the service renews it itself: the closure makes the
    /// renewed entry (value, freshness, validators) from the stored value, as an HTTP cache updates
    /// the stored header fields from a 304 (RFC 9111 §4.3.4). Nothing is worked out for a stored
    /// value the repository does not have.
    case notModifiedRenewing(@Sendable (Value) -> Fetched<Value>)
}
