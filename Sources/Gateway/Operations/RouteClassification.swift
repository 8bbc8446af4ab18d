/// Which configured route answered a request: the label used in metrics and logs.
public struct RouteClassification: Sendable, Hashable {
    /// The label of requests that matched no route, so that random paths add no metric series.
    public static let unmatched = RouteClassification(route: "unmatched")

    /// The route template, e.g. `/weather/{city}` or `/health`.
    public var route: String
    /// The repository behind the route, when it is a repository route.
    public var repository: String?

    /// Creates a classification.
    public init(route: String, repository: String? = nil) {
        self.route = route
        self.repository = repository
    }
}
