import HTTP1
import RDS
import Sockets

/// The loop-native pass-through: a `GET` or `HEAD` of a key marked hit-for-pass (its last answer
/// could not be stored, see ``RDS/Repository/get(_:intent:passing:)``) answered on the server's
/// event loop, without a task, as ``InstrumentedHandler/answerOnLoop(_:_:)`` drives it.
///
/// A request qualifies when the fast path left its ``MatchedRoute`` with the key's mark seen
/// (nothing stored), and nothing would make today's read take another turn: the route allows
/// the method, the request has no `Cache-Control` or `Pragma`, nobody watches the key (whose
/// states a read would publish), the repository's service is an ``HTTPService`` over the
/// HTTP/1.1 client with no credential providers, and the key forwards no unkeyed field.
///
/// It sends the request today's path would send (``HTTPService/outgoing(_:credentials:)``, with
/// the same fetch deadline) through the client's callback form, on the same loop. An answer that
/// is *plain* (below 500, not 304, not storable, no `Vary` that re-keys the read) is made into
/// today's response there (the same exchange, representation and ``RepositoryResponse``). Anything
/// else, and a call the client's leaving cancels, goes back to today's path with the call's
/// outcome in hand (``Outcome/replay(_:)``): that path takes it instead of calling again, so its
/// error chains, published states, stored entries and log lines stay the only ones there are.
struct LoopPassThrough {
    /// How the pass-through ended.
    enum Outcome {
        /// Today's response to a plain answer (before the request id and metrics are added).
        case answered(HTTPResponse)
        /// Not plain: today's path is to answer, with this outcome of the call.
        case replay(UpstreamReceipt)
    }

    /// The request's route, key and container, as the fast path matched them.
    private let match: MatchedRoute
    private let service: HTTPService
    private let base: UpstreamBase
    private let carrier: HTTP1Transport
    private let fetchDeadline: Double

    /// The pass-through of `request`, or `nil` when it does not qualify.
    init?(_ request: HTTPRequest) {
        guard let match = request.handlerNote as? MatchedRoute, match.passing == true,
            let service = match.resources.loopService, let repository = match.resources.repository,
            match.resources.route.settings.methods.contains(request.method.rawValue),
            match.key.passedHeaders.isEmpty, !request.headers.contains("Cache-Control"),
            !request.headers.contains("Pragma"), !repository.store.broadcasters.isWatched(match.key),
            let base = service.bases.base(of: service.host.baseURL, transport: service.transport),
            let carrier = base.http1Carrier
        else { return nil }
        self.match = match
        self.service = service
        self.base = base
        self.carrier = carrier
        fetchDeadline = repository.policy.fetchDeadline
    }

    /// The route, for metrics and the log line.
    var route: RouteClassification { match.resources.route.classification }

    /// Sends the upstream request (carrying `id`) from `loop`'s thread; `completion` gets the
    /// outcome there, possibly before this returns.
    /// - Returns: The upstream call, to cancel it when the client goes away.
    func start(
        _ request: HTTPRequest, id: RequestID, on loop: EventLoop, completion: @escaping (Outcome) -> Void
    ) -> HTTPClientCall {
        match.resources.refresher?.noteRead(match.key)
        let call = HTTPService.Call(
            method: .get, key: match.key, base: base, extraHeaders: HTTPHeaders(), body: [],
            timeouts: service.timeouts(leaving: fetchDeadline))
        let outgoing = service.outgoing(call, credentials: [])
        var upstream = outgoing.request
        service.observer?.willSend(&upstream, id: id)
        let requestTime = service.clock.now
        let sent = LoopInstant.now
        return carrier.send(upstream, to: base.endpoint, timeouts: call.timeouts, on: loop) { result in
            let receipt = UpstreamReceipt(
                result: result, requestTime: requestTime, responseTime: service.clock.now,
                elapsedNanoseconds: LoopInstant.now.nanoseconds(since: sent))
            completion(outcome(of: receipt, sent: outgoing, for: request))
        }
    }

    /// Today's response when the call's answer is plain; the receipt to replay otherwise.
    private func outcome(of receipt: UpstreamReceipt, sent outgoing: HTTPService.Outgoing, for request: HTTPRequest)
        -> Outcome
    {
        let key = match.key
        guard case .success(let answer) = receipt.result, case .bytes(let body) = answer.body,
            HTTPService.isAnswer(status: answer.status)
        else { return .replay(receipt) }
        let exchange = service.exchange(
            of: outgoing, key: key, answer: answer, body: body, requestTime: receipt.requestTime,
            responseTime: receipt.responseTime ?? service.clock.now)
        let route = match.resources.route
        guard case .fetched(let fetched)? = try? service.answer(to: exchange, key: key, conditional: false),
            !fetched.freshness.isStorable, route.variants.rekeyed(key, for: fetched.value.headers) == nil
        else { return .replay(receipt) }
        service.observer?.didEnd(.success(answer.status), elapsedNanoseconds: receipt.elapsedNanoseconds)
        let settings = route.settings
        return .answered(
            RepositoryResponse.make(
                RepositoryAnswer(value: fetched.value, entry: nil, cacheStatus: .bypass), request: request,
                now: match.container.clock.now, downstreamCacheControl: settings.downstreamCacheControl,
                heuristic: settings.isHeuristic(fetched.value), hiddenField: settings.hiddenTagField))
    }
}
