import Synchronization

/// The route the router matched for the request the current task answers, kept for that
/// request's metrics and log line: ``InstrumentedHandler`` then need not match its path again.
final class MatchedRoute: Sendable {
    private let classification = Mutex<RouteClassification?>(nil)

    /// The note of the request the current task answers, bound by ``InstrumentedHandler``.
    @TaskLocal static var current: MatchedRoute?

    /// Keeps the route the request matched.
    func record(_ route: RouteClassification) { classification.withLock { $0 = route } }

    /// The route recorded; `nil` when the router answered without matching a repository route.
    var recorded: RouteClassification? { classification.withLock { $0 } }
}
