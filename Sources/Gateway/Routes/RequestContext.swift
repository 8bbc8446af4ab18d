import RDS
import Synchronization

/// The request the current task answers: its id, who reads its problem bodies, and what
/// answering it leaves for its log line and metrics (the whole error chain behind a problem
/// answer, and the route the router matched, so that the request need not be matched again to
/// be classified).
///
/// One task-local binding per request carries all of it (``InstrumentedHandler`` binds it; a
/// ``GatewayRouter`` without one binds its own): each binding costs an async closure and its
/// executor hops on every request.
final class RequestContext: Sendable {
    private struct Notes {
        var chain: ErrorChain?
        var route: RouteClassification?
        var audience = ProblemAudience.anonymous
    }

    /// The request's id (`nil` when no ``InstrumentedHandler`` gave it one): see ``RequestID/current``.
    let id: RequestID?
    private let notes = Mutex(Notes())

    /// The context of the request the current task answers. Tasks started while answering (an
    /// upstream fetch, a background refresh) inherit it.
    @TaskLocal static var current: RequestContext?

    /// A context for the request with `id`.
    init(id: RequestID?) {
        self.id = id
    }

    /// Who reads the request's problem bodies; anonymous until the router has checked.
    var audience: ProblemAudience {
        get { notes.withLock { $0.audience } }
        set { notes.withLock { $0.audience = newValue } }
    }

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
