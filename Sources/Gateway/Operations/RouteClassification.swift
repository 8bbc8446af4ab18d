import RDS

/// Which configured route answered a request: the label used in metrics and logs.
public struct RouteClassification: Sendable, Hashable {
    /// The label of requests that matched no route, so that random paths add no metric series.
    public static let unmatched = RouteClassification(route: "unmatched")

    /// The route template, e.g. `/weather/{city}` or `/health`.
    public let route: String
    /// The repository behind the route, when it is a repository route.
    public let repository: String?
    /// The route and the repository as request log fields, prepared once (see ``InstrumentedHandler``).
    let logFields: LogFields

    /// The fields behind one reference: a copy of a classification retains one object for them.
    final class LogFields: Sendable {
        let route: PreparedLogField
        let repository: PreparedLogField?

        init(route: String, repository: String?) {
            self.route = PreparedLogField("route", .string(route))
            self.repository = repository.map { PreparedLogField("repository", .string($0)) }
        }
    }

    /// Where this route's requests are counted, resolved once; `nil` for routes whose series are
    /// found by label on each request (``GatewayMetrics/recorder(route:repository:)``). Not part
    /// of equality.
    public let recorder: RouteRecorder?

    /// Creates a classification.
    public init(route: String, repository: String? = nil, recorder: RouteRecorder? = nil) {
        self.route = route
        self.repository = repository
        self.logFields = LogFields(route: route, repository: repository)
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
