/// Why a route or upstream path template is not valid.
public struct RouteTemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `must start with "/"`.
    public let description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
