import Foundation
import HTTP1
import HTTPCaching
import RDS

/// The gateway's HTTP handler: liveness, admin, the embedded demo's knobs, and every repository
/// route (`/metrics` and `/health/ready` are answered in front of it by ``OperationsHandler``).
///
/// ``respondImmediately(to:)`` answers fresh cache hits (and `/health`) on the server's event loop
/// without a task hop, through ``Repository/cachedAnswer(for:)``; everything else goes through
/// ``handle(_:)``: misses, revalidation, stale answers, errors, Server-Sent Events, writes and
/// admin calls. When the client goes away the handling task is cancelled, which abandons the
/// upstream call unless other waiters share it (RDS single-flight).
public struct GatewayRouter: HTTPHandler {
    /// The composition root's container.
    public let container: GatewayDependencyContainer
    let adminAccess: AdminAccess
    /// The embedded demo upstream, reachable at `/__demo/…` for its knobs.
    let demo: (any HTTPHandler)?
    /// What `POST /admin/reload` calls; `nil` when the configuration cannot be reloaded.
    var reload: ReloadAction?

    /// Reloads the configuration and tells what changed (see ``GatewayReloader``).
    public typealias ReloadAction = @Sendable () async throws -> ReloadReport

    /// Creates the router.
    /// - Parameters:
    ///   - container: Supplies the repositories and their routes.
    ///   - demo: The embedded demo upstream, whose `/__demo/…` knobs the router passes through.
    public init(container: GatewayDependencyContainer, demo: (any HTTPHandler)? = nil) {
        self.container = container
        self.adminAccess = AdminAccess(token: container.configuration.server.adminToken)
        self.demo = demo
    }

    /// Answers `/health` and fresh cache hits of `GET`/`HEAD` synchronously; `nil` otherwise,
    /// leaving the route it matched in `request` (a ``MatchedRoute``) for ``handle(_:)``.
    public func respondImmediately(to request: inout HTTPRequest) -> HTTPResponse? {
        classifiedImmediateAnswer(to: &request)?.response
    }

    /// ``respondImmediately(to:)`` with the route that answered, as ``classify(_:)`` names it
    /// (the route matched once serves the answer, the metrics and the log line), and the
    /// answer's `X-Cache` value, which the metrics and the log line need (searching the answer's
    /// fields for it cost ~300 instructions per hit).
    func classifiedImmediateAnswer(
        to request: inout HTTPRequest
    ) -> (response: HTTPResponse, route: RouteClassification, xCache: String?)? {
        guard request.method == .get || request.method == .head else { return nil }
        let path = request.path
        if Self.path(path, is: "/health") { return (Self.health, Self.healthClassification, nil) }
        guard !Self.hasFragment(request) else { return nil }
        guard !Self.wantsEvents(request), let (resources, captures) = match(path) else { return nil }
        let route = resources.route
        let key = route.key(path: path, captures: captures, query: request.query, headers: request.headers)
        // No queued write pending for the key; the stored answer asked where the repository lies
        // (a copy of it would retain each of its parts) and bound here, where it is served (an
        // answer handed on through another optional was copied, and that copy destroyed). A
        // look-up that finds none notes the key's hit-for-pass mark for the read that follows.
        var passing: Bool?
        guard !(resources.outbox?.hasPending(key) ?? false),
            let answer = resources.repository?.cachedAnswer(for: key, passing: &passing),
            servesAsStored(answer, to: request, on: resources, key: key)
        else {
            request.handlerNote = MatchedRoute(container: container, resources: resources, key: key, passing: passing)
            return nil
        }
        resources.refresher?.noteRead(key)
        let response = RepositoryResponse.make(
            answer, request: request, now: container.clock.now,
            downstreamCacheControl: route.settings.downstreamCacheControl,
            heuristic: route.settings.isHeuristic(answer.value), hiddenField: route.settings.hiddenTagField)
        return (response, route.classification, RepositoryResponse.xCache(of: answer))
    }

    /// `true` when the fresh stored `answer` for `key` may be served to `request` as it is,
    /// without waiting: no secondary key, and acceptable to the request's directives.
    private func servesAsStored(
        _ answer: RepositoryAnswer<Representation>, to request: HTTPRequest, on resources: RouteResources,
        key: ResourceKey
    ) -> Bool {
        guard resources.route.variants.rekeyed(key, for: answer.value.headers) == nil else { return false }
        if request.headers.contains("Cache-Control") || request.headers.contains("Pragma"), let entry = answer.entry {
            let now = container.clock.now
            let verdict = RequestDirectives(request.headers).verdict(
                age: entry.age(at: now), timeToLive: entry.timeToLive(at: now), mustRevalidate: entry.mustRevalidate)
            return verdict == .useStored
        }
        return true
    }

    /// Answers any request. Problem bodies show their whole error chain only to callers that pass
    /// the admin check (see ``ProblemAudience``), as the request's ``RequestContext`` records
    /// (one of the router's own when no ``InstrumentedHandler`` bound one). The tasks the
    /// repositories start for the request (its fetch) run on the context's event loop.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        guard let context = RequestContext.current else {
            return await RequestContext(id: nil).bind { await handle(request) }
        }
        context.audience = adminAccess.refusal(for: request) == nil ? .administrator : .anonymous
        return await answer(request, in: context)
    }

    /// The answer to `request`, noting the route it matched in `context` (passed along: reading
    /// the task-local again costs a lookup).
    private func answer(_ request: HTTPRequest, in context: RequestContext) async -> HTTPResponse {
        // The fast path leaves its match only for a `GET` or `HEAD` of a repository route, without
        // a fragment and not asking for events: none of the gateway's own paths (no route may
        // collide with them), so those are not told apart again.
        if let match = request.handlerNote as? MatchedRoute, match.container === container {
            context.record(route: match.resources.route.classification)
            return await repositoryRequest(
                request, on: match.resources, key: match.key, passing: match.passing, wantsEvents: false)
        }
        let path = request.path
        if Self.hasFragment(request) {
            return refuse(.badRequest, "A request target must not hold a fragment (\"#\")", path: path)
        }
        if Self.path(path, is: "/health") {
            guard request.method == .get || request.method == .head else {
                return refuse(.methodNotAllowed, "/health answers GET and HEAD", path: path, allow: "GET, HEAD")
            }
            return Self.health
        }
        if Self.path(path, is: "/admin") || Self.path(path, startsWith: "/admin/") { return await admin(request) }
        if Self.path(path, startsWith: "/hooks/") { return await hook(request) }
        if Self.path(path, is: "/events") { return multiTopicEvents(request) }
        if let demo, Self.path(path, startsWith: "/__demo/") {
            if let refusal = adminAccess.demoRefusal(for: request) { return ProblemResponse.make(refusal, path: path) }
            return await demo.handle(request)
        }
        switch matchOrReject(path) {
        case .success(let (resources, captures)):
            let route = resources.route
            context.record(route: route.classification)
            let key = route.key(path: path, captures: captures, query: request.query, headers: request.headers)
            return await repositoryRequest(
                request, on: resources, key: key, wantsEvents: request.method == .get && Self.wantsEvents(request))
        case .failure(let refusal):
            return ProblemResponse.make(refusal, path: path)
        }
    }

    /// The route matching `path` (with what its requests use) and its captures, or `nil` (also
    /// for rejected traversal).
    func match(_ path: Substring) -> (RouteResources, RouteCaptures)? {
        if case .success(let found) = matchOrReject(path) { return found }
        return nil
    }

    /// The first route fitting `path` (of those its first segment may fit); `capturing: false`
    /// leaves the captures empty (classification), as does a route whose upstream path is the
    /// path itself (its key needs none, ``RepositoryRoute/upstreamIsThePath``).
    private func matchOrReject(
        _ path: Substring, capturing: Bool = true
    ) -> Result<(RouteResources, RouteCaptures), GatewayError> {
        for resources in container.routeTable.candidates(for: path) {
            let route = resources.route
            switch capturing && !route.upstreamIsThePath ? route.template.match(path) : route.template.matchShape(path) {
            case .noMatch: continue
            case .matched(let captures): return .success((resources, captures))
            case .rejected(let segment):
                return .failure(GatewayError(.pathTraversal, "The path segment \"\(segment)\" is not allowed"))
            }
        }
        return .failure(GatewayError(.routeNotFound, "No route matches \(path)"))
    }

    /// The route template and repository of `request`, for metrics and request logs.
    public func classify(_ request: HTTPRequest) -> RouteClassification {
        let path = request.path
        if Self.path(path, is: "/health") || Self.path(path, is: "/metrics") || Self.path(path, is: "/health/ready") {
            return RouteClassification(route: String(path))
        }
        if Self.path(path, startsWith: "/admin/") { return RouteClassification(route: "/admin") }
        if Self.path(path, startsWith: "/hooks/") { return RouteClassification(route: "/hooks/{repository}") }
        if Self.path(path, is: "/events") { return RouteClassification(route: "/events") }
        if demo != nil, Self.path(path, startsWith: "/__demo/") { return RouteClassification(route: "/__demo") }
        guard case .success(let (resources, _)) = matchOrReject(path, capturing: false) else { return .unmatched }
        return resources.route.classification
    }

    private static let healthClassification = RouteClassification(route: "/health")

    func refuse(_ kind: GatewayError.Kind, _ message: String, path: Substring, allow: String? = nil) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let allow { headers["Allow"] = allow }
        return ProblemResponse.make(GatewayError(kind, message), path: path, headers: headers)
    }

    private static let health = HTTPResponse(
        status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
        bytes: Array(
            #"{"status":"ok","service":"\#(GatewayVersion.name)","version":"\#(GatewayVersion.current)"}"#.utf8))

    /// `true` when the target holds `#`: a fragment is never sent (RFC 9110 §7.1), and passed on it
    /// would cut the upstream path or query short.
    static func hasFragment(_ request: HTTPRequest) -> Bool {
        request.target.firstIndex(ofASCII: UInt8(ascii: "#")) != nil
    }

    /// `true` when `path` starts with `prefix`, compared over the path's own bytes (the substring
    /// view's `withContiguousStorageIfAvailable` runs unspecialised; a `Character` comparison
    /// costs more than a route match).
    static func path(_ path: Substring, startsWith prefix: String) -> Bool {
        var path = path  // `withUTF8` may make a bridged string contiguous; a request's path is native
        return path.withUTF8 { $0.starts(withBytesOf: prefix) }
    }

    /// `true` when `path` is `route`, compared over bytes (a string comparison, which settles
    /// Unicode equivalence, costs several times more; a request's path is bytes): lengths first,
    /// then with `memcmp`. Both read in the path's bytes: a substring's view counts, and a view
    /// finds its last byte, through calls of their own (~35–70 instructions each).
    static func path(_ path: Substring, is route: String) -> Bool {
        var path = path  // `withUTF8` may make a bridged string contiguous; a request's path is native
        return path.withUTF8 { $0.count == route.utf8.count && $0.starts(withBytesOf: route) }
    }

    /// `true` when the client asks for Server-Sent Events (`Accept: text/event-stream`).
    static func wantsEvents(_ request: HTTPRequest) -> Bool {
        request.headers["Accept"]?.contains("text/event-stream") ?? false
    }
}
