extension ConfigurationValidator {
    /// Request headers that are never forwarded: they belong to one connection, or the transport sets them.
    static let unforwardableHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te",
        "trailer", "transfer-encoding", "upgrade", "host", "content-length",
    ]

    /// The most warm-up paths one repository may list.
    static let maxWarmUp = 10_000

    /// The methods a repository may allow.
    static let knownMethods: Set<String> = ["GET", "HEAD", "PUT", "PATCH", "POST", "DELETE"]

    func validateRepository(
        _ repository: RepositorySettings, name: String, services: [String: ServiceSettings]
    ) throws(ConfigurationError) {
        let path = "repositories.\(name)"
        guard !name.isEmpty, name.utf8.allSatisfy({ RouteTemplate.isPathByte($0) && $0 != UInt8(ascii: "%") }),
            !RouteTemplate.isDotSegment(name[...])
        else { throw fail(path, "expected a repository name of letters, digits, \"-\" and \"_\"") }
        let route: RouteTemplate
        do {
            route = try RouteTemplate(parsing: repository.route)
        } catch {
            throw fail(path + ".route", "bad route template \"\(repository.route)\": \(error)")
        }
        guard services[repository.service] != nil else {
            let known = services.keys.sorted().joined(separator: ", ")
            throw fail(path + ".service", "no service named \"\(repository.service)\"; expected one of: \(known)")
        }
        do {
            _ = try UpstreamPathTemplate(parsing: repository.upstreamPath, route: route)
        } catch {
            throw fail(path + ".upstreamPath", "bad upstream path template \"\(repository.upstreamPath)\": \(error)")
        }
        try validateMethods(repository.methods, path: path + ".methods")
        try validateTTLs(repository, path: path)
        guard repository.warmUp.count <= Self.maxWarmUp else {
            throw fail(path + ".warmUp", "expected at most \(Self.maxWarmUp) paths, found \(repository.warmUp.count)")
        }
        for (index, warm) in repository.warmUp.enumerated() {
            let warmPath = warm.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard case .matched = route.match(warmPath) else {
                throw fail("\(path).warmUp[\(index)]", "expected a path matching the route \(route), found \"\(warm)\"")
            }
        }
        for (index, header) in repository.cacheKey.headers.enumerated() {
            try requireHeaderName(header, "\(path).cacheKey.headers[\(index)]")
        }
        if case .only(let names) = repository.cacheKey.query, names.contains(where: \.isEmpty) {
            throw fail(path + ".cacheKey.query", "expected \"*\" or non-empty parameter names")
        }
        try requireHeaderName(repository.targetedCacheControl, path + ".targetedCacheControl")
        if let fraction = repository.heuristicFraction, !(0...1).contains(fraction) {
            throw fail(path + ".heuristicFraction", "expected a fraction between 0 and 1, found \(fraction)")
        }
        try validateLiveSettings(repository, path: path)
        for (index, header) in repository.forwardHeaders.enumerated() {
            let keyPath = "\(path).forwardHeaders[\(index)]"
            try requireHeaderName(header, keyPath)
            guard !Self.unforwardableHeaders.contains(header.lowercased()) else {
                throw fail(keyPath, "\"\(header)\" is hop-by-hop or set by the gateway and is never forwarded")
            }
        }
    }

    private func validateMethods(_ methods: [String], path: String) throws(ConfigurationError) {
        let allowed = Self.knownMethods.sorted().joined(separator: ", ")
        for (index, method) in methods.enumerated() where !Self.knownMethods.contains(method) {
            throw fail("\(path)[\(index)]", "expected one of: \(allowed), found \"\(method)\"")
        }
        guard methods.contains("GET") else { throw fail(path, "expected GET among the methods") }
    }

    private func validateTTLs(_ repository: RepositorySettings, path: String) throws(ConfigurationError) {
        for (value, key) in [
            (repository.minTTL, "minTTL"), (repository.maxTTL, "maxTTL"), (repository.defaultTTL, "defaultTTL"),
            (repository.staleWhileRevalidate, "staleWhileRevalidate"), (repository.staleIfError, "staleIfError"),
        ] {
            try requireNonNegative(value, "\(path).\(key)", max: Self.maxLifetime)
        }
        try requirePositive(repository.fetchDeadline, path + ".fetchDeadline")
        try requirePositive(
            repository.writes.idempotencyRetention, path + ".writes.idempotencyRetention", max: Self.maxLifetime)
        if let queue = repository.writes.queue {
            let queuePath = path + ".writes.queue"
            guard repository.isReadWrite else { throw fail(queuePath, "needs a write method among the methods") }
            for (value, key) in [(queue.maxPending, "maxPending"), (queue.parallelKeys, "parallelKeys")] where value < 1 {
                throw fail("\(queuePath).\(key)", "expected a number above 0, found \(value)")
            }
            try requirePositive(queue.maxAge, queuePath + ".maxAge", max: Self.maxLifetime)
            try requirePositive(queue.retryBase, queuePath + ".retryBase")
            try requirePositive(queue.retryMax, queuePath + ".retryMax")
        }
        guard repository.writes.maxIdempotencyKeys > 0 else {
            throw fail(
                path + ".writes.maxIdempotencyKeys",
                "expected a number above 0, found \(repository.writes.maxIdempotencyKeys)")
        }
        guard repository.minTTL <= repository.maxTTL else {
            throw fail(path + ".maxTTL", "expected at least minTTL (\(repository.minTTL)), found \(repository.maxTTL)")
        }
        guard (repository.minTTL...repository.maxTTL).contains(repository.defaultTTL) else {
            throw fail(
                path + ".defaultTTL",
                "expected a value from minTTL (\(repository.minTTL)) to maxTTL (\(repository.maxTTL)), found \(repository.defaultTTL)"
            )
        }
        if let fraction = repository.refreshAhead, !(fraction > 0 && fraction < 1) {
            throw fail(
                path + ".refreshAhead", "expected a fraction of the lifetime above 0 and below 1, found \(fraction)")
        }
    }

    func validateRouteCollisions(_ repositories: [String: RepositorySettings]) throws(ConfigurationError) {
        let reserved = Self.reservedRoutes.compactMap { try? RouteTemplate(parsing: $0) }
        var seen: [(name: String, route: RouteTemplate)] = []
        for name in repositories.keys.sorted() {
            guard let text = repositories[name]?.route, let route = try? RouteTemplate(parsing: text) else { continue }
            if let taken = reserved.first(where: route.collides(with:)) {
                throw fail(
                    "repositories.\(name).route",
                    "the route \(route) collides with the gateway's own \(taken); expected a route outside /health, /metrics, /admin, /__demo, /hooks and /events"
                )
            }
            if let other = seen.first(where: { route.collides(with: $0.route) }) {
                throw fail(
                    "repositories.\(name).route",
                    "the route \(route) collides with repositories.\(other.name).route (\(other.route)); expected routes no path matches twice"
                )
            }
            seen.append((name, route))
        }
    }
}
