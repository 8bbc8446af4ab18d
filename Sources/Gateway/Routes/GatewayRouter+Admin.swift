import Foundation
import HTTP1
import RDS

extension GatewayRouter {
    /// The ``AdminEndpoint``s, after the access check.
    func admin(_ request: HTTPRequest) async -> HTTPResponse {
        let path = request.path
        if let refusal = adminAccess.refusal(for: request) {
            var headers = HTTPHeaders()
            if refusal.kind == .unauthorized { headers["WWW-Authenticate"] = #"Bearer realm="rds-gateway""# }
            return ProblemResponse.make(refusal, path: path, headers: headers)
        }
        let matches = AdminEndpoint.match(path)
        guard !matches.isEmpty else {
            return refuse(.routeNotFound, "No admin endpoint \(path)", path: path)
        }
        guard let (endpoint, captures) = matches.first(where: { $0.endpoint.method == request.method }) else {
            let methods = matches.map(\.endpoint.method.rawValue).joined(separator: ", ")
            return refuse(.methodNotAllowed, "\(methods) only", path: path, allow: methods)
        }
        let name = captures["name"]
        switch endpoint {
        case .statusPage: return StatusPage.response
        case .errors: return JSONResponse.make(container.recentProblems.jsonObjects)
        case .reload: return await reloadConfiguration(path: path)
        case .openAPI: return OpenAPIDocument.response(routes: container.routes)
        case .repositories: return JSONResponse.make(container.routes.map(describe))
        case .resource(let action):
            return await repositoryAdmin(action, name: String(name ?? ""), request: request)
        case .queuedWrites(let action):
            return await queuedWritesAdmin(action, name: String(name ?? ""), id: captures["id"], path: path)
        }
    }

    /// The endpoints of one repository: `state`, `refresh` and `cache`.
    private func repositoryAdmin(
        _ action: AdminResourceAction, name: String, request: HTTPRequest
    ) async -> HTTPResponse {
        let path = request.path
        guard let route = container.route(named: name), let repository = container.makeRepository(named: name) else {
            return refuse(.repositoryNotFound, "No repository named \"\(name)\"", path: path)
        }
        let query = QueryItems(request.query)
        let key = query["path"].flatMap { route.key(forTarget: $0) }
        if query["path"] != nil, key == nil {
            return refuse(.badRequest, "The path does not match the route \(route.template)", path: path)
        }
        switch action {
        case .state:
            guard let key else { return refuse(.badRequest, "state needs ?path=", path: path) }
            var object = await stateReport(of: key, in: repository, route: route)
            let variants = route.variants.variants(of: key).filter { $0 != key }
            if !variants.isEmpty {
                var reports: [[String: Any]] = []
                for variant in Self.sortedForDisplay(variants) {
                    var entry = await stateReport(of: variant, in: repository, route: route)
                    entry["fields"] = Self.displayedFields(of: variant)
                    reports.append(entry)
                }
                object["variants"] = reports
            }
            return JSONResponse.make(object)
        case .refresh:
            guard let key else { return refuse(.badRequest, "refresh needs ?path=", path: path) }
            let variants = route.variants.variants(of: key).filter { $0 != key }
            if query["wait"] == "false" {
                for target in [key] + variants { repository.refreshInBackground(target) }
                return JSONResponse.make(
                    ["status": "accepted", "key": key.description, "variants": variants.count], status: 202)
            }
            async let others: Void = Self.refreshAll(variants, in: repository)
            let answer: RepositoryAnswer<Representation>
            do {
                answer = try await repository.refresh(key)
            } catch {
                await others
                return ProblemResponse.make(error, path: path, repository: name)
            }
            await others
            var response = RepositoryResponse.make(answer, request: request, now: container.clock.now)
            response.headers.add(name: "X-Refreshed-Variants", value: String(variants.count))
            return response
        case .cache:
            return await purge(query: query, key: key, route: route, in: repository, path: path)
        case .fetch:
            guard let key else { return refuse(.badRequest, "fetch needs ?path=", path: path) }
            let cancelled = ([key] + route.variants.variants(of: key).filter { $0 != key })
                .filter { repository.cancelFetch($0) }.count
            return JSONResponse.make(["repository": name, "key": key.description, "cancelled": cancelled])
        }
    }

    /// `DELETE …/cache[?path=…|?tag=…][&soft=true]`: drops (or, soft, marks stale) one resource
    /// with its variants, the resources carrying a tag, or the whole repository, and says how many.
    private func purge(
        query: QueryItems, key: ResourceKey?, route: RepositoryRoute,
        in repository: Repository<ResourceKey, Representation>, path: Substring
    ) async -> HTTPResponse {
        let soft = query["soft"] == "true"
        let tag = query["tag"]
        let name = route.name
        do {
            guard key != nil || tag != nil else {
                if soft { return refuse(.badRequest, "a soft purge needs ?path= or ?tag=", path: path) }
                try await repository.purgeAll()
                return JSONResponse.make(["repository": name, "purged": "all"])
            }
            await learnSharedTags(tag.map { [$0] } ?? [], route: route)
            guard case .success(let keys) = keys(paths: [], tags: tag.map { [$0] } ?? [], route: route) else {
                return refuse(.badRequest, "bad purge", path: path)
            }
            let named = key.map { [$0] + route.variants.variants(of: $0).filter { $0 != key } } ?? []
            let count = try await apply(soft ? .softPurge : .invalidate, to: named + keys, in: repository)
            let purged = key?.description ?? "tag \(tag ?? "")"
            return JSONResponse.make(["repository": name, "purged": purged, "count": count, "soft": soft])
        } catch {
            return ProblemResponse.make(error, path: path, repository: name)
        }
    }

    private func describe(_ route: RepositoryRoute) -> [String: Any] {
        let settings = route.settings
        var object: [String: Any] = [
            "name": route.name, "route": settings.route, "service": settings.service,
            "upstreamPath": settings.upstreamPath,
            "methods": settings.methods, "readWrite": settings.isReadWrite, "policy": settings.policy.rawValue,
            "minTTL": settings.minTTL,
            "maxTTL": settings.maxTTL, "defaultTTL": settings.defaultTTL,
            "staleWhileRevalidate": settings.staleWhileRevalidate, "staleIfError": settings.staleIfError,
            "refreshAhead": settings.refreshAhead ?? NSNull(), "warmUp": settings.warmUp,
        ]
        if let memory = container.memoryStatistics(named: route.name) { object["memory"] = Self.json(memory) }
        var disk: [String: Any] = ["status": "off"]
        if let health = container.diskHealth(named: route.name) {
            disk = ["status": health.status.rawValue, "writeFailures": health.writeFailures]
            disk["error"] = health.lastError ?? container.diskProblems[route.name]
            disk["lastFailure"] = health.lastFailure?.formatted(.iso8601)
        }
        if let statistics = container.diskStatistics(named: route.name) {
            disk.merge(Self.json(statistics)) { $1 }
        }
        object["disk"] = disk
        return object
    }

    private static func json(_ statistics: DatastoreStatistics) -> [String: Any] {
        ["entries": statistics.entries, "bytes": statistics.bytes, "evictions": statistics.evictions]
    }
}
