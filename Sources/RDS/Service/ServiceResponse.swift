/// The answer of ``Service/get(_:ifChangedFrom:)``.
public enum ServiceResponse<Value: Sendable>: Sendable {
    /// A new value.
    case fetched(Fetched<Value>)
    /// The stored value is still current (a conditional request answered "not modified");
    /// the entry is renewed with this freshness and, where present, these validators.
    case notModified(Freshness, Validators)
}
