/// The outcome of matching a request path against a ``RouteTemplate``.
public enum RouteMatch: Sendable, Equatable {
    /// The path does not fit the template.
    case noMatch
    /// The path fits; the captured values, exactly as sent, by name.
    case matched(RouteCaptures)
    /// The path fits the shape but a captured segment is `.` or `..` (path traversal).
    case rejected(String)
}
