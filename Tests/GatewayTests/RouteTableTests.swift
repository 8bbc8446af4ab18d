import Testing

@testable import Gateway

/// A path is matched only against the routes its first segment may fit, and the answer is the
/// one trying every route in configured order gives: the same route, the same refusal.
struct RouteTableTests {
    /// Overlapping templates, in configured order: literals before and after open ones, a shared
    /// first literal, a catch-all.
    static let templates = [
        "/items/special", "/{tenant}/items", "/items/{id}", "/users/{id}", "/a", "/ab/{x}", "/files/{rest...}",
        "/items/{id}/parts", "/{anything}",
    ]
    static let paths = [
        "/items/special", "/items/42", "/acme/items", "/users/7", "/users", "/a", "/ab/1", "/ab", "/b",
        "/files", "/files/x/y", "/items/42/parts", "/zzz", "/", "", "items/42", "/users/..", "/files/a/../b",
        "/items//special", "/Items/42", "/itemsx/1",
    ]

    static func routes(_ templates: [String]) throws -> [RouteResources] {
        try templates.enumerated().map { index, template in
            RouteResources(
                route: try RepositoryRoute(
                    name: "r\(index)", settings: RepositorySettings(route: template, service: "up")),
                repository: nil, outbox: nil, refresher: nil)
        }
    }

    /// The first route fitting `path` among `routes`, or how it was refused: as the router decides.
    static func answer(_ path: String, among routes: [RouteResources]) -> String {
        for route in routes {
            switch route.route.template.match(path[...]) {
            case .noMatch: continue
            case .matched: return route.route.name
            case .rejected(let segment): return "rejected \(segment)"
            }
        }
        return "none"
    }

    @Test(arguments: paths)
    func candidates_AnswerAsEveryRouteInOrder(path: String) throws {
        let routes = try Self.routes(Self.templates)
        let table = RouteTable(routes)
        #expect(Self.answer(path, among: table.candidates(for: path[...])) == Self.answer(path, among: routes))
    }

    @Test func candidates_LeaveOutRoutesOfAnotherFirstLiteral() throws {
        let routes = try Self.routes(Self.templates)
        let table = RouteTable(routes)
        #expect(table.candidates(for: "/users/7").map(\.route.name) == ["r1", "r3", "r8"])
        #expect(table.candidates(for: "/items/42").map(\.route.name) == ["r0", "r1", "r2", "r7", "r8"])
        #expect(table.candidates(for: "/nothing/here").map(\.route.name) == ["r1", "r8"])
    }

    @Test func candidates_OfRoutesWithoutOpenOnes_AreEmptyForAnUnknownSegment() throws {
        let table = RouteTable(try Self.routes(["/hit/{id}", "/zipf/{id}"]))
        #expect(table.candidates(for: "/zipf/3").map(\.route.name) == ["r1"])
        #expect(table.candidates(for: "/pass/3").isEmpty)
    }
}
