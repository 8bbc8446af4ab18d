import Gateway
import Testing

/// A route whose upstream path is the route itself takes a matching path as its upstream path:
/// the key is the one expanding the template from the path's captures gives.
struct RepositoryRouteKeyTests {
    static let paths = [
        "/items/42", "/items/a%20b", "/items/caf%C3%A9", "/items/café", "/items/42/parts", "/a/1/b/2", "/", "/files",
        "/files/x/y", "/v1/x",
    ]

    @Test func key_OfARouteThatIsItsOwnUpstreamPath_IsTheKeyItsExpansionGives() throws {
        for template in ["/items/{id}", "/items/{id}/parts", "/a/{x}/b/{y}", "/", "/v1/x"] {
            let route = try RepositoryRoute(name: "r", settings: RepositorySettings(route: template, service: "up"))
            #expect(route.upstreamIsThePath)
            for path in Self.paths {
                guard case .matched(let captures) = route.template.match(path[...]) else { continue }
                let expanded = ResourceKey(repository: "r", path: route.upstream.expand(captures))
                #expect(route.key(path: path[...], captures: RouteCaptures(), query: nil, headers: [:]) == expanded)
                // Hashed from the route's hasher of its name, as a key made anew is hashed.
                #expect(
                    route.key(path: path[...], captures: RouteCaptures(), query: nil, headers: [:]).hashValue
                        == expanded.hashValue)
                #expect(route.key(path: path[...], captures: RouteCaptures(), query: nil, headers: [:]).path == path)
            }
        }
    }

    /// Among them a remainder (`/files` fills `/files/{rest...}` as `/files/`), another upstream
    /// path, and one with a query of its own.
    @Test func key_OfAnyOtherRoute_IsExpandedFromTheCaptures() throws {
        let settings = [
            RepositorySettings(route: "/files/{rest...}", service: "up"),
            RepositorySettings(route: "/items/{id}", service: "up", upstreamPath: "/data/{id}"),
            RepositorySettings(route: "/items/{id}", service: "up", upstreamPath: "/items/{id}?v=2"),
        ]
        for settings in settings {
            let route = try RepositoryRoute(name: "r", settings: settings)
            #expect(!route.upstreamIsThePath)
            for path in Self.paths {
                guard case .matched(let captures) = route.template.match(path[...]) else { continue }
                let expanded = route.upstream.expand(captures)
                let key = route.key(path: path[...], captures: captures, query: nil, headers: [:])
                #expect(key.target == expanded)
            }
        }
    }
}
