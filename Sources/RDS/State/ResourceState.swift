import Foundation

/// The state of one resource, as subscribers see it.
public enum ResourceState<Value: Sendable>: Sendable {
    /// Nothing has happened to the resource yet.
    case initialized
    /// A fetch is under way; `previous` is the value held before it, if any.
    case loading(previous: Value?)
    /// The value is available.
    case loaded(Value, origin: ValueOrigin, at: Date)
    /// The last operation failed; `cached` is a value still usable (stale-if-error), if any.
    case failed(any Error, cached: Value?)
}
