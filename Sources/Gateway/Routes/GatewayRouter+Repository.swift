import Foundation
import HTTP1
import HTTPCaching
import RDS

extension GatewayRouter {
    /// A request for `key` on a repository route: a read, a Server-Sent Events subscription, or
    /// a write (405 when the route does not allow the method, or its `repository` is gone).
    /// `passing` is the key's hit-for-pass mark when the fast path saw it (see ``MatchedRoute``);
    /// `wantsEvents` tells a `GET` asking for Server-Sent Events (``GatewayRouter/wantsEvents(_:)``).
    func repositoryRequest(
        _ request: HTTPRequest, on resources: RouteResources, key: ResourceKey, passing: Bool? = nil,
        wantsEvents: Bool
    ) async -> HTTPResponse {
        let path = request.path
        let route = resources.route
        let methods = route.settings.methods
        guard methods.contains(request.method.rawValue), let repository = resources.repository else {
            return refuse(
                .methodNotAllowed, "The repository \(route.name) allows \(methods.joined(separator: ", "))", path: path,
                allow: methods.joined(separator: ", "))
        }
        switch request.method {
        case .get where wantsEvents:
            let response = events(of: key, request: request)
            resources.refresher?.noteSubscribed(key)
            return response
        case .get, .head:
            resources.refresher?.noteRead(key)
            if let pending = resources.outbox?.newestPending(for: key) {
                return pendingAnswer(pending, path: path, repository: route.name)
            }
            return await read(request, key: key, in: repository, route: route, passing: passing)
        default:
            return await write(request, key: key, in: repository, route: route)
        }
    }

    /// A `GET` or `HEAD`, following the client's cache directives (RFC 9111 §5.2.1): a stored
    /// response they accept is served as it is; `no-cache`, `max-age` and `min-fresh` force a
    /// revalidation; `only-if-cached` gives 504 when nothing usable is stored; `no-store` fetches
    /// without storing.
    private func read(
        _ request: HTTPRequest, key: ResourceKey, in repository: Repository<ResourceKey, Representation>,
        route: RepositoryRoute, passing: Bool?
    ) async -> HTTPResponse {
        let directives = RequestDirectives(request.headers)
        let now = container.clock.now
        let downstream = route.settings.downstreamCacheControl
        var verdict = RequestDirectives.Verdict.cachePolicy
        if !directives.isEmpty, let stored = try? await repository.store.datastore.get(key) {
            verdict = directives.verdict(
                age: stored.age(at: now), timeToLive: stored.timeToLive(at: now), mustRevalidate: stored.mustRevalidate)
            if verdict == .useStored, route.variants.rekeyed(key, for: stored.value.headers) == nil {
                let answer = RepositoryAnswer(
                    value: stored.value, entry: stored, cacheStatus: stored.isFresh(at: now) ? .hit : .stale)
                return RepositoryResponse.make(
                    answer, request: request, now: now, downstreamCacheControl: downstream,
                    heuristic: route.settings.isHeuristic(stored.value), hiddenField: route.settings.hiddenTagField)
            }
        }
        if directives.onlyIfCached {
            let refusal = GatewayError(.notCached, "Nothing usable is stored for \(request.path) (only-if-cached)")
            return ProblemResponse.make(refusal, path: request.path, repository: route.name)
        }
        do {
            if directives.noStore, case .fetched(let fetched) = try await repository.service.get(key, ifChangedFrom: nil) {
                return RepositoryResponse.uncached(fetched.value, forward: "fwd=request", stored: false)
            }
            let revalidate = verdict == .revalidate || directives.noCache
            var answer = try await repository.get(key, intent: revalidate ? .revalidate : .cached, passing: passing)
            if let variant = route.variants.rekeyed(key, for: answer.value.headers) {
                answer = try await repository.get(variant, intent: revalidate ? .revalidate : .cached)
            }
            return RepositoryResponse.make(
                answer, request: request, now: container.clock.now, forwardedOnRequest: revalidate,
                downstreamCacheControl: downstream, heuristic: route.settings.isHeuristic(answer.value), hiddenField: route.settings.hiddenTagField)
        } catch {
            return failure(error, path: request.path, route: route, forward: "fwd=miss")
        }
    }

    /// The answer when the repository failed: the upstream's own 5xx answer when the repository
    /// says `upstreamErrors: "passthrough"` (and one was received), else Problem Details (naming
    /// the `element` a failed write tried to write).
    func failure(
        _ error: any Error, path: Substring, route: RepositoryRoute, forward: String, element: WrittenElement? = nil
    ) -> HTTPResponse {
        if route.settings.upstreamErrors == .passthrough, let reply = UpstreamReply.find(in: error) {
            return RepositoryResponse.uncached(reply.representation, forward: forward, stored: false)
        }
        return ProblemResponse.make(error, path: path, repository: route.name, element: element)
    }
}
