import HTTP1
import RDS
import Sockets
import Synchronization

/// The loop-native pass-through: a `GET` or `HEAD` of a key marked hit-for-pass (its last answer
/// could not be stored, see ``RDS/Repository/get(_:intent:passing:)``) answered on the server's
/// event loop, without a task, as ``InstrumentedHandler/answerOnLoop(_:_:)`` drives it.
///
/// One per route whose repository's service qualifies (``RouteResources/loopPassThrough``). A
/// request qualifies when the fast path left its ``MatchedRoute`` with the key's mark seen
/// (nothing stored), and nothing would make today's read take another turn: the route allows
/// the method, the request has no `Cache-Control` or `Pragma`, nobody watches the key (whose
/// states a read would publish), the repository's service is an ``HTTPService`` over the
/// HTTP/1.1 client with no credential providers, and the key forwards no unkeyed field.
///
/// It sends the request today's path would send (``HTTPService/outgoing(_:credentials:)``, with
/// the same fetch deadline; for a key forwarding no field, written from the request head made
/// once per base, ``UpstreamRequestHead``) through the client's callback form, on the same loop. An answer that
/// is *plain* (below 500, not 304, not storable, no `Vary` that re-keys the read) is made into
/// today's response there: relayed from its field lines as received when it can be
/// (``relayed(_:receipt:forwarded:for:)``), else from the same exchange, representation and
/// ``RepositoryResponse`` as today's. Anything
/// else, and a call the client's leaving cancels, goes back to today's path with the call's
/// outcome in hand (``Outcome/replay(_:)``): that path takes it instead of calling again, so its
/// error chains, published states, stored entries and log lines stay the only ones there are.
final class LoopPassThrough: Sendable {
    /// How the pass-through ended.
    enum Outcome {
        /// Today's response to a plain answer, with its request id (before metrics are added).
        case answered(HTTPResponse)
        /// Not plain: today's path is to answer, with this outcome of the call.
        case replay(UpstreamReceipt)
    }

    /// The route whose reads it answers.
    let route: RepositoryRoute
    private let repository: Repository<ResourceKey, Representation>
    let service: HTTPService
    private let refresher: BackgroundRefresher<ResourceKey, Representation>?
    /// The fields a relayed answer's lines drop (``relayed(_:receipt:forwarded:for:)``) besides those
    /// its `Connection` names: the hop-by-hop ones, the targeted one, the route's hidden one and
    /// those today's response replaces.
    let unrelayedFieldNames: HTTPFieldNames
    /// The fields that tell whether an answer may be stored (``HTTPCaching/FreshnessPolicy/storabilityFieldNames``).
    let storabilityFieldNames: HTTPFieldNames
    /// The service's base and its request head when its host is fixed (a ``FixedHostProvider``),
    /// made once: another host's base is asked of the service's cache per call (a comparison of
    /// URLs), and its head is held under a lock (``requestHeads``).
    private let fixed: (base: UpstreamBase, head: UpstreamRequestHead?)?
    /// The service's base and its request head, once made, or `nil` when it cannot be (see
    /// ``requestHead(for:)``), for a host that is not fixed.
    private let requestHeads = Mutex<(base: UpstreamBase, head: UpstreamRequestHead?)?>(nil)

    /// The pass-through of `route`'s reads, or `nil` when its repository's service does not
    /// qualify (see the type's documentation).
    init?(
        route: RepositoryRoute, repository: Repository<ResourceKey, Representation>?,
        refresher: BackgroundRefresher<ResourceKey, Representation>?
    ) {
        guard let repository, let service = repository.service as? HTTPService, service.credentials.isEmpty else {
            return nil
        }
        self.route = route
        self.repository = repository
        self.service = service
        self.refresher = refresher
        fixed = (service.host as? FixedHostProvider).flatMap {
            service.bases.base(of: $0.baseURL, transport: service.transport)
        }.map { ($0, UpstreamRequestHead(service: service, base: $0)) }
        let settings = route.settings
        storabilityFieldNames = HTTPFieldNames(service.policy.storabilityFieldNames)
        let routeOwn = [settings.hiddenTagField, settings.downstreamCacheControl.map { _ in "Cache-Control" }]
        unrelayedFieldNames = HTTPFieldNames(
            Representation.hopByHopHeaderNames + RepositoryResponse.replacedFieldNames + [service.policy.targetedField]
                + routeOwn.compactMap { $0 })
    }

    /// Where `request` for `key` (marked hit-for-pass) goes when it qualifies, and through which
    /// transport; `nil` otherwise.
    func upstream(for request: HTTPRequest, key: ResourceKey) -> (base: UpstreamBase, carrier: HTTP1Transport)? {
        guard route.settings.methods.contains(request.method.rawValue), key.passedHeaders.isEmpty,
            !request.headers.contains("Cache-Control"), !request.headers.contains("Pragma"),
            !repository.store.broadcasters.isWatched(key),
            let base = fixed?.base ?? service.bases.base(of: service.host.baseURL, transport: service.transport),
            let carrier = base.http1Carrier
        else { return nil }
        return (base, carrier)
    }

    /// Sends the upstream request for `key` to `upstream` (carrying `id`) from `loop`'s thread;
    /// `completion` gets the outcome there, possibly before this returns, with `request` (held
    /// here for it: a second closure holding the request costs a copy of all its parts).
    /// - Returns: The upstream call, to cancel it when the client goes away.
    func start(
        _ request: HTTPRequest, key: ResourceKey, to upstream: (base: UpstreamBase, carrier: HTTP1Transport),
        id: RequestID, on loop: EventLoop, completion: @escaping (Outcome, HTTPRequest) -> Void
    ) -> HTTPClientCall {
        let (base, carrier) = upstream
        refresher?.noteRead(key)
        let timeouts = service.timeouts(leaving: repository.policy.fetchDeadline)
        // A key forwarding no field: today's request from the head made once for its base.
        if key.headers.isEmpty, let head = requestHead(for: base) {
            let path = HTTPService.joinedPath(base: base.path, key.path)
            let target = service.target(path: path, key: key, baseQuery: base.query, credentials: [])
            return carrier.send(
                serialized: head.request(target: target, id: id), method: .get, keepsAlive: head.keepsAlive,
                to: base.endpoint, timeouts: timeouts, on: loop,
                completion: answering(
                    request, key: key, id: id, forwarded: [], path: path, from: base.endpoint, then: completion))
        }
        let call = HTTPService.Call(
            method: .get, key: key, base: base, extraHeaders: HTTPHeaders(), body: [], timeouts: timeouts)
        var outgoing = service.outgoing(call, credentials: [])
        service.observer?.willSend(&outgoing.request, id: id)
        return carrier.send(
            outgoing.request, to: base.endpoint, timeouts: timeouts, on: loop,
            completion: answering(
                request, key: key, id: id, forwarded: outgoing.forwarded, path: outgoing.path, from: base.endpoint,
                then: completion))
    }

    /// The upstream call's completion, for a request sent now to `endpoint`: the receipt made
    /// (the client's error as a ``TransportError``), its outcome worked out (the call forwarded
    /// `forwarded` to `path`) and handed to `completion` with `request`.
    private func answering(
        _ request: HTTPRequest, key: ResourceKey, id: RequestID, forwarded: [(name: String, value: String)],
        path: String, from endpoint: UpstreamEndpoint, then completion: @escaping (Outcome, HTTPRequest) -> Void
    ) -> (Result<HTTPResponse, any Error>) -> Void {
        let requestTime = service.clock.now
        let sent = LoopInstant.now
        return { [self] result in
            let receipt = UpstreamReceipt(
                result: HTTP1Transport.transportResult(result, endpoint: endpoint), requestTime: requestTime,
                responseTime: service.clock.now, elapsedNanoseconds: LoopInstant.now.nanoseconds(since: sent))
            completion(outcome(of: receipt, forwarded: forwarded, path: path, key: key, for: request, id: id), request)
        }
    }

    /// The request head of `base` (``UpstreamRequestHead``): a fixed host's made with the
    /// pass-through, another's at its first use and again when the service's base changes; `nil`
    /// when the service's requests cannot be made so.
    private func requestHead(for base: UpstreamBase) -> UpstreamRequestHead? {
        if let fixed, fixed.base === base { return fixed.head }
        if let held = requestHeads.withLock({ $0 }), held.base === base { return held.head }
        let head = UpstreamRequestHead(service: service, base: base)
        requestHeads.withLock { $0 = (base, head) }
        return head
    }

    /// Today's response when the call's answer is plain, with `id` (added here, where it is not
    /// shared: a response bound out of the outcome would be copied to take it); the receipt to
    /// replay otherwise.
    private func outcome(
        of receipt: UpstreamReceipt, forwarded: [(name: String, value: String)], path: String, key: ResourceKey,
        for request: HTTPRequest, id: RequestID
    ) -> Outcome {
        if case .success(let answer) = receipt.result,
            var response = relayed(answer, receipt: receipt, forwarded: forwarded, for: request)
        {
            // A relayed answer holds no `X-Request-ID` (its line is dropped): appended, not searched for.
            response.headers.add(name: RequestID.headerName, value: id.value)
            return answered(response, to: answer, of: receipt)
        }
        let receipt = receipt.withFieldsMade()
        guard case .success(let answer) = receipt.result, case .bytes(let body) = answer.body,
            HTTPService.isAnswer(status: answer.status)
        else { return .replay(receipt) }
        let exchange = service.exchange(
            forwarding: forwarded, path: path, key: key, answer: answer, body: body, requestTime: receipt.requestTime,
            responseTime: receipt.responseTime ?? service.clock.now)
        guard case .fetched(let fetched)? = try? service.answer(to: exchange, key: key, conditional: false),
            !fetched.freshness.isStorable, route.variants.rekeyed(key, for: fetched.value.headers) == nil
        else { return .replay(receipt) }
        let settings = route.settings
        var response = RepositoryResponse.make(
            RepositoryAnswer(value: fetched.value, entry: nil, cacheStatus: .bypass), request: request,
            now: service.clock.now, downstreamCacheControl: settings.downstreamCacheControl,
            heuristic: settings.isHeuristic(fetched.value), hiddenField: settings.hiddenTagField)
        response.headers[RequestID.headerName] = id.value
        return answered(response, to: answer, of: receipt)
    }

    /// A plain answer's outcome: the call observer told of the call's end.
    private func answered(
        _ response: consuming HTTPResponse, to answer: HTTPResponse, of receipt: UpstreamReceipt
    ) -> Outcome {
        service.observer?.didEnd(.success(answer.status), elapsedNanoseconds: receipt.elapsedNanoseconds)
        return .answered(response)
    }
}
