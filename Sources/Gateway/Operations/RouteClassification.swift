/// Which configured route answered a request: the label used in metrics and logs.
public struct RouteClassification: Sendable, Hashable {
    /// The label of requests that matched no route, so that random paths add no metric series.
    public static let unmatched = RouteClassification(route: "unmatched")

    /// The route template, e.g. `/weather/{city}` or `/health`.
    public var route: String
    /// The repository behind the route, when it is a repository route.
    public var repository: String?

    /// Where this route's requests are counted, resolved once; `nil` for routes whose series are
    /// found by label on each request (``GatewayMetrics/recorder(route:repository:)``). Not part
    /// of equality.
    public let recorder: RouteRecorder?

    /// Creates a classification.
    public init(route: String, repository: String? = nil, recorder: RouteRecorder? = nil) {
        self.route = route
        self.repository = repository
        self.recorder = recorder
    }

    /// Equal when the route and the repository are.
    public static func == (lhs: RouteClassification, rhs: RouteClassification) -> Bool {
        lhs.route == rhs.route && lhs.repository == rhs.repository
    }

    /// Hashes the route and the repository.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(route)
        hasher.combine(repository)
    }
}
