import RDS
import Synchronization

/// What answering the current request leaves for its log line and metrics: the whole error chain
/// behind a problem answer (anonymous clients see less of it; see ``ProblemAudience``), and the
/// route the router matched (so that the request need not be matched again to be classified).
final class RequestLog: Sendable {
    private struct Notes {
        var chain: ErrorChain?
        var route: RouteClassification?
    }

    private let notes = Mutex(Notes())

    /// The log of the request the current task answers, bound by ``InstrumentedHandler``.
    @TaskLocal static var current: RequestLog?

    /// Keeps `chain` (the last one recorded wins).
    func record(_ chain: ErrorChain) { notes.withLock { $0.chain = chain } }

    /// Keeps the route the request matched.
    func record(route: RouteClassification) { notes.withLock { $0.route = route } }

    /// The route recorded; `nil` when the router answered without matching a repository route.
    var route: RouteClassification? { notes.withLock { $0.route } }

    /// The chain as one log field, outermost link first:
    /// `code: message {key=value, …} <- code: message`; `nil` when none was recorded.
    var problemField: String? {
        notes.withLock { $0.chain }.map { chain in
            chain.links.map { link in
                let details = link.details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                let suffix = details.isEmpty ? "" : " {\(details.joined(separator: ", "))}"
                return "\(link.code): \(link.message)\(suffix)"
            }.joined(separator: " <- ")
        }
    }
}
