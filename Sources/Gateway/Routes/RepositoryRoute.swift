import HTTP1

/// How requests reach one repository: its route, the upstream path template, and the cache-key
/// rules that turn a matched request into a ``ResourceKey``.
public final class RepositoryRoute: Sendable {
    /// The repository's name.
    public let name: String
    /// Its settings from the configuration.
    public let settings: RepositorySettings
    /// The route clients call.
    public let template: RouteTemplate
    /// The upstream path the captures fill.
    public let upstream: UpstreamPathTemplate
    /// Which query parameters and headers make up the key (and are forwarded).
    public let keyRules: CacheKeyRules
    /// The secondary keys of a `forwardHeaders: "*"` repository: the unkeyed fields its answers vary on.
    public let variants = VaryRegistry()
    /// How metrics and logs name requests on this route.
    public let classification: RouteClassification
    /// `true` when the upstream path is the route itself (`/items/{id}` both ways) and the route
    /// takes no remainder (`{path...}`): a matching path is then its own upstream path, taken as
    /// it is, not expanded from captures made for it (~600 instructions per request).
    public let upstreamIsThePath: Bool
    /// A hasher that has combined ``name``, which every key of the route's hash begins with.
    private let nameHasher: Hasher

    /// Builds the route of a validated repository.
    /// - Parameter metrics: Where its requests are counted: their series are resolved now (see
    ///   ``RouteClassification/recorder``); `nil` leaves them to be found by label.
    /// - Throws: ``RouteTemplateError`` when a template does not parse (validation prevents it).
    public init(name: String, settings: RepositorySettings, metrics: GatewayMetrics? = nil) throws(RouteTemplateError) {
        self.name = name
        self.settings = settings
        self.template = try RouteTemplate(parsing: settings.route)
        self.upstream = try UpstreamPathTemplate(parsing: settings.upstreamPath, route: template)
        let query: QueryParameterRule =
            switch settings.cacheKey.query {
            case .all: .all
            case .only(let names): names.isEmpty ? .none : .only(Set(names))
            }
        self.keyRules = CacheKeyRules(queryParameters: query, headers: settings.forwardedHeaderList)
        self.nameHasher = ResourceKey.hasher(combining: name)
        self.upstreamIsThePath =
            settings.upstreamPath == settings.route && !settings.upstreamPath.contains("?")
            && !template.segments.contains { if case .catchAll = $0 { true } else { false } }
        self.classification = RouteClassification(
            route: settings.route, repository: name, recorder: metrics?.recorder(route: settings.route, repository: name))
    }

    /// The key for a request whose `path` matched with `captures` (none are read when
    /// ``upstreamIsThePath``): the upstream path from the template (its own query, if any,
    /// joined with the client's admitted parameters), the admitted query and the forwarded
    /// headers, plus the passed fields its resource is known to vary on (``variants``).
    public func key(path: Substring, captures: RouteCaptures, query: Substring?, headers: HTTPHeaders) -> ResourceKey {
        let expanded = upstreamIsThePath ? String(path) : upstream.expand(captures)
        // Searched byte by byte: a `Character` search costs half of building the key.
        guard let mark = expanded.firstIndex(ofASCII: UInt8(ascii: "?")) else {
            return variants.keyed(
                keyRules.key(repository: name, hasher: nameHasher, path: expanded, query: query, requestHeaders: headers))
        }
        let ownQuery = expanded[expanded.index(after: mark)...]
        let admitted = keyRules.key(repository: name, path: "/", query: query, requestHeaders: headers)
        let combined = [String(ownQuery), admitted.query].filter { !$0.isEmpty }.joined(separator: "&")
        return variants.keyed(
            ResourceKey(
                repository: name, path: String(expanded[..<mark]), query: combined[...], headers: admitted.headers,
                passedHeaders: admitted.passedHeaders))
    }

    /// The key for a path (with its query, if any) such as a warm-up entry or an admin `?path=`;
    /// `nil` when it does not match the route.
    public func key(forTarget target: String, headers: HTTPHeaders = [:]) -> ResourceKey? {
        let request = HTTPRequest(method: .get, target: target, headers: headers)
        guard case .matched(let captures) = template.match(request.path) else { return nil }
        return key(path: request.path, captures: captures, query: request.query, headers: headers)
    }

    /// The path (and query) a client requests `key` by: the key's upstream target when the
    /// upstream path is the route, else the route filled with what the upstream template captured.
    public func clientPath(of key: ResourceKey) -> String {
        guard settings.upstreamPath != settings.route else { return key.target }
        let upstreamPath = settings.upstreamPath.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        guard let upstreamTemplate = try? RouteTemplate(parsing: upstreamPath),
            case .matched(let captures) = upstreamTemplate.match(key.path[...])
        else { return key.target }
        let segments = template.segments.map { segment -> String in
            switch segment {
            case .literal(let text): text
            case .variable(let name), .catchAll(let name): captures[name] ?? ""
            }
        }
        let path = "/" + segments.joined(separator: "/")
        return key.query.isEmpty ? path : path + "?" + key.query
    }
}
