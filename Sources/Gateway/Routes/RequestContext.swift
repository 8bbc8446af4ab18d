import RDS
import Sockets
import Synchronization

/// The request the current task answers: its id, where the tasks it starts run, who reads its
/// problem bodies, and what answering it leaves for its log line and metrics (the whole error
/// chain behind a problem answer, and the route the router matched, so that the request need not
/// be matched again to be classified).
///
/// One task-local binding per request carries all of it, RDS's ``TaskPlacement/scope``
/// (``InstrumentedHandler`` binds it; a ``GatewayRouter`` without one binds its own): each
/// binding costs an async closure and its executor hops on every request.
final class RequestContext: TaskPlacementScope {
    private struct Notes {
        var chain: ErrorChain?
        var route: RouteClassification?
        var audience = ProblemAudience.anonymous
    }

    /// The request's id (`nil` when no ``InstrumentedHandler`` gave it one): see ``RequestID/current``.
    let id: RequestID?
    /// The event loop answering the request, if any: the tasks its repositories start (its
    /// fetch) run there too, in tasks the loop keeps between jobs.
    private let loop: EventLoop?
    private let notes = Mutex(Notes())
    /// The outcome of the request's upstream call a ``LoopPassThrough`` made (`nil` for most
    /// requests, which then take no lock to learn it), and whether a call took it.
    private let primed: UpstreamReceipt?
    private let primedTaken = Atomic<Bool>(false)

    /// The context of the request the current task answers (bound with ``bind(_:)``). Tasks
    /// started while answering (an upstream fetch, a background refresh) inherit it.
    static var current: RequestContext? { TaskPlacement.scope as? RequestContext }

    /// A context for the request with `id`, answered on the current thread's event loop (if any);
    /// `primed` is the outcome of its upstream call when a ``LoopPassThrough`` made it already.
    init(id: RequestID?, primed: UpstreamReceipt? = nil) {
        self.id = id
        self.loop = EventLoop.current
        self.primed = primed
    }

    /// The outcome of the request's upstream call made already, once (the first call that asks
    /// takes it). A call the client's leaving cancelled cancels the current task as it is taken,
    /// as the client's leaving cancels the request's task on the path that awaits the call.
    func takePrimedReceipt() -> UpstreamReceipt? {
        guard let primed, !primedTaken.exchange(true, ordering: .relaxed) else { return nil }
        if case .failure(is CancellationError) = primed.result { withUnsafeCurrentTask { $0?.cancel() } }
        return primed
    }

    var preferredExecutor: (any TaskExecutor)? { loop }

    /// Runs `job` with this context bound in a task the request's loop keeps (no task is
    /// created, nor the slabs of its frames allocated); `nil` off the loop's thread.
    func startTask(_ job: @escaping @Sendable () async -> Void) -> (any PlacedTask)? {
        guard let loop, loop.isInLoopThread else { return nil }
        // `job` bound directly, not through `bind(_:)`: one closure, and its executor hop, fewer.
        let task = loop.startTask { [self] in await TaskPlacement.$scope.withValue(self, operation: job) }
        return LoopPlacedTask(loop: loop, task: task)
    }

    /// Runs `operation` with this context as ``current``.
    func bind<Result>(_ operation: () async -> Result) async -> Result {
        await TaskPlacement.$scope.withValue(self, operation: operation)
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
