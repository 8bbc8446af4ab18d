/// The answer of ``Service/get(_:ifChangedFrom:)``.
public enum ServiceResponse<Value: Sendable>: Sendable {
    /// A new value.
    case fetched(Fetched<Value>)
    /// The stored value is still current (a conditional request answered "not modified");
    /// the entry is renewed with this freshness and, where present, these validators. When
    /// `renew` is given, it makes the renewed entry from the stored value instead (an HTTP
    /// cache updates the stored header fields from the 304, RFC 9111 §4.3.4).
    case notModified(Freshness, Validators, renew: (@Sendable (Value) -> Fetched<Value>)? = nil)
}
