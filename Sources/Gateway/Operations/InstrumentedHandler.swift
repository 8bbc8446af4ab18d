import HTTP1
import RDS
import Sockets

/// Methods counted by name, with their request log field; any other token is counted as `other`,
/// so clients cannot add series. (Globals: a generic type has no stored static properties. A short
/// list compared in order: hashing the method for a set cost more than these comparisons of short strings.)
private let instrumentedMethods: [(method: HTTPMethod, logField: PreparedLogField)] =
    [HTTPMethod.get, .head, .post, .put, .patch, .delete, .options].map {
        ($0, PreparedLogField("method", .string($0.rawValue)))
    }
private let otherMethodLogField = PreparedLogField("method", "other")

/// The request log line's `cache` field for each `X-Cache` value the gateway writes, prepared
/// once: copied as it is, where the value as a string was checked for bytes to escape on every line.
private let cacheLogFields = (
    hit: PreparedLogField("cache", "HIT"), miss: PreparedLogField("cache", "MISS"),
    stale: PreparedLogField("cache", "STALE"), revalidated: PreparedLogField("cache", "REVALIDATED"),
    bypass: PreparedLogField("cache", "BYPASS")
)

/// The names of the request log line's other fields, prepared once.
private let requestLogNames = (
    cache: PreparedLogName("cache"), duration: PreparedLogName("duration_ms"), error: PreparedLogName("error"),
    path: PreparedLogName("path"), requestID: PreparedLogName("request_id"), status: PreparedLogName("status")
)

/// Wraps the gateway's handler: gives every request an id (the client's valid `X-Request-ID` or
/// a new one) returned on the response and visible to the inner handler and upstream calls as
/// ``RequestID/current`` (a client's invalid `X-Request-ID` is replaced by it in the request the
/// inner handler gets), counts it in ``GatewayMetrics``, and writes one JSON log line for it.
///
/// A problem answer's whole error chain goes into that line as `error` (see ``RequestContext``). A
/// request whose client left before its answer is counted and logged at `info` with status 499
/// (nginx's convention), not as the 5xx its cancelled handling produced.
public struct InstrumentedHandler<Inner: HTTPHandler>: HTTPHandler {
    /// Tells which route (and repository) a request belongs to; must be cheap and never block.
    public typealias Classifier = @Sendable (HTTPRequest) -> RouteClassification
    /// Answers a request at once, naming the route that answered and the answer's `X-Cache`
    /// value (as its fields hold it); `nil` for the async path. The answer holds no `X-Request-ID`:
    /// the request's own is appended to it without searching its fields for another.
    public typealias ClassifiedResponder =
        @Sendable (inout HTTPRequest) -> (response: HTTPResponse, route: RouteClassification, xCache: String?)?

    private let inner: Inner
    private let metrics: GatewayMetrics
    private let logger: any Logger
    private let classify: Classifier
    private let respondClassified: ClassifiedResponder
    private let recentProblems: RecentProblems?
    private let passesThroughOnLoop: Bool

    /// Wraps `inner`.
    /// - Parameters:
    ///   - inner: The handler answering the requests.
    ///   - metrics: Where requests and cache results are counted.
    ///   - logger: Where the per-request lines go (at `info`, or `error` for 5xx answers to clients still there).
    ///   - classify: Names the route of a request, ``RouteClassification/unmatched`` when none (for the
    ///     async path, only when `inner` recorded no route in ``RequestContext``).
    ///   - recentProblems: Keeps each problem answer with its error chain, for `GET /admin/errors`.
    ///   - respondImmediately: Answers at once as `inner` does, naming the route it matched (so
    ///     that `classify` need not match it again) and the answer's `X-Cache` value (so that its
    ///     fields need not be searched); by default `inner`, then `classify` and a search.
    ///   - passesThroughOnLoop: Answers the pass-throughs of keys marked hit-for-pass on the
    ///     event loop, without a task (see ``LoopPassThrough``), when `inner` is the gateway's router.
    public init(
        wrapping inner: Inner, metrics: GatewayMetrics, logger: any Logger, classify: @escaping Classifier,
        recentProblems: RecentProblems? = nil, respondImmediately: ClassifiedResponder? = nil,
        passesThroughOnLoop: Bool = false
    ) {
        self.inner = inner
        self.metrics = metrics
        self.logger = logger
        self.classify = classify
        self.respondClassified =
            respondImmediately ?? { request in
                guard var response = inner.respondImmediately(to: &request) else { return nil }
                response.headers.remove(RequestID.headerName)
                return (response, classify(request), response.headers["X-Cache"])
            }
        self.recentProblems = recentProblems
        self.passesThroughOnLoop = passesThroughOnLoop
    }

    /// The fast path: asks `inner` first, so that a request it cannot answer at once costs nothing more.
    public func respondImmediately(to request: inout HTTPRequest) -> HTTPResponse? {
        let start = LoopInstant.now
        // Taken apart at once: a response read out of the tuple was copied, and the tuple destroyed.
        guard case (var response, let route, let cache)? = respondClassified(&request) else { return nil }
        let id = RequestID(header: request.headers[RequestID.headerName])
        finish(&response, cache: cache, method: request.method, path: request.path, route: route, id: id, since: start)
        assert(!response.headers.contains(RequestID.headerName), "an immediate answer holds an X-Request-ID")
        response.headers.add(name: RequestID.headerName, value: id.value)
        return response
    }

    /// The loop-native pass-through of a request that qualifies (``LoopPassThrough``), counted
    /// and logged as the `async` path counts and logs it; `false` for any other request (and one
    /// whose `X-Request-ID` is invalid: the `async` path replaces it in the request).
    public func answerOnLoop(_ request: HTTPRequest, _ answer: HTTPLoopAnswer) -> Bool {
        guard passesThroughOnLoop, let match = request.handlerNote as? MatchedRoute, match.passing == true,
            let passThrough = match.resources.loopPassThrough,
            let upstream = passThrough.upstream(for: request, key: match.key)
        else { return false }
        let start = LoopInstant.now
        let header = request.headers[RequestID.headerName]
        let id = RequestID(header: header)
        guard header == nil || header == id.value else { return false }
        metrics.requestsInFlight.increment()
        // The request comes back with the outcome: this closure holds no copy of it.
        let call = passThrough.start(
            request, key: match.key, to: upstream, id: id, on: answer.loop
        ) { outcome, request in
            metrics.requestsInFlight.decrement()
            switch outcome {
            case .answered(var response):
                finish(
                    &response, cache: RepositoryResponse.xCache(.bypass), method: request.method, path: request.path,
                    route: passThrough.route.classification, id: id, since: start)
                answer.respond(response)
            case .replay(let receipt):
                replay(request, id: id, since: start, receipt: receipt, to: answer)
            }
        }
        // A call that ended at once (a refused connect) left nothing to cancel.
        if !call.isFinished { answer.onCancel { call.cancel() } }
        return true
    }

    /// Answers `request` on the `async` path, in a task on the answer's loop, with the outcome of
    /// the upstream call its ``LoopPassThrough`` made (``RequestContext/takePrimedReceipt()``).
    private func replay(
        _ request: HTTPRequest, id: RequestID, since start: LoopInstant, receipt: UpstreamReceipt,
        to answer: HTTPLoopAnswer
    ) {
        let loop = answer.loop
        let task = loop.startTask { [self] in
            let response = await self.answer(request, id: id, since: start, in: RequestContext(id: id, primed: receipt))
            guard loop.isInLoopThread else { return loop.execute { answer.respond(response) } }
            answer.respond(response)
        }
        answer.onCancel { task.cancel() }
    }

    /// The async path, with the request's ``RequestContext`` (its id) bound for every task the answer starts.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let start = LoopInstant.now
        let header = request.headers[RequestID.headerName]
        let id = RequestID(header: header)
        // A client's invalid id is replaced before the inner handler sees the request; a missing
        // one is not added (the inner handler reads ``RequestID/current``): adding a field would
        // copy every field of the request, which the server's task still holds. (The request is
        // copied only to be changed: a `var` copy of it costs its retains and releases.)
        guard let header, header != id.value else {
            return await answer(request, id: id, since: start, in: RequestContext(id: id))
        }
        var replaced = request
        replaced.headers[RequestID.headerName] = id.value
        return await answer(replaced, id: id, since: start, in: RequestContext(id: id))
    }

    /// `request` answered by the inner handler with `context` (of `id`) bound, then counted and
    /// logged. (The caller makes the context: an `async` function keeps its arguments in its
    /// frame, and the context is one reference where a primed receipt is several words.)
    private func answer(
        _ request: HTTPRequest, id: RequestID, since start: LoopInstant, in context: RequestContext
    ) async -> HTTPResponse {
        metrics.requestsInFlight.increment()
        defer { metrics.requestsInFlight.decrement() }
        var answer = await context.bind { await inner.handle(request) }
        let cache = answer.headers["X-Cache"]
        // The server cancels the handling task when the client goes away.
        finish(
            &answer, cache: cache, method: request.method, path: request.path,
            route: context.route ?? classify(request), id: id,
            since: start,
            clientGone: Task.isCancelled, error: context.problemField)
        answer.headers[RequestID.headerName] = id.value
        return answer
    }

    /// The prepared `cache` field of the `X-Cache` value the gateway writes for `result`.
    private static func preparedCacheField(_ result: GatewayMetrics.CacheResult) -> PreparedLogField {
        switch result {
        case .hit: cacheLogFields.hit
        case .miss: cacheLogFields.miss
        case .stale: cacheLogFields.stale
        case .revalidated: cacheLogFields.revalidated
        case .bypass: cacheLogFields.bypass
        }
    }

    /// nginx's status for a request whose client closed the connection before the answer.
    static var clientClosedRequest: Int { 499 }

    /// Counts and logs the answer to a `requestMethod` request for `path`, whose `X-Cache` value is
    /// `cache` (the caller adds the request id to it). Given the request's method and path, not
    /// the request: reading an `inout` request whole copies it.
    private func finish(
        _ response: inout HTTPResponse, cache: String?, method requestMethod: HTTPMethod, path: Substring,
        route classification: RouteClassification, id: RequestID, since start: LoopInstant, clientGone: Bool = false, error: String? = nil
    ) {
        let nanoseconds = LoopInstant.now.nanoseconds(since: start)
        let status = clientGone ? Self.clientClosedRequest : response.status
        let counted = instrumentedMethods.firstIndex { $0.method == requestMethod }
        let method = counted.map { instrumentedMethods[$0].method.rawValue } ?? "other"
        // The value as the gateway writes it matched once, for the count and the log field; any
        // other spelling counted without case and logged as it is.
        let written = cache.flatMap(GatewayMetrics.CacheResult.init(exactXCache:))
        let cacheResult = written ?? cache.flatMap(GatewayMetrics.CacheResult.init(xCache:))
        // A route's own recorder, resolved when it was built; others' series are found by label.
        let recorder =
            classification.recorder ?? metrics.recorder(route: classification.route, repository: classification.repository)
        recorder.record(method: method, status: status, nanoseconds: nanoseconds, cacheResult: cacheResult)
        // Sorted by name, as `Logger.log(_:_:writingFields:)` requires; the constant parts prepared.
        logger.log(status >= 500 ? .error : .info, "request") { fields in
            if let written {
                fields.write(Self.preparedCacheField(written))
            } else if let cache {
                fields.write(requestLogNames.cache, string: cache)
            }
            fields.write(requestLogNames.duration, durationNanoseconds: nanoseconds)
            if let error { fields.write(requestLogNames.error, string: error) }
            fields.write(counted.map { instrumentedMethods[$0].logField } ?? otherMethodLogField)
            fields.write(requestLogNames.path, string: path)
            if let repository = classification.logFields.repository { fields.write(repository) }
            fields.write(requestLogNames.requestID, verbatim: id.value)
            fields.write(classification.logFields.route)
            fields.write(requestLogNames.status, int: status)
        }
        if let error, !clientGone {
            recentProblems?.record(
                method: method, path: String(path), status: status, requestID: id.value, chain: error)
        }
    }
}
