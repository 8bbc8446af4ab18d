import Gateway
import Testing

struct RouteTemplateTests {
    @Test func match_CapturesVariable_WhenSegmentsFit() throws {
        let template = try RouteTemplate(parsing: "/weather/{city}")
        #expect(template.match("/weather/london") == .matched(["city": "london"]))
        #expect(template.match("/weather") == .noMatch)
        #expect(template.match("/weather/") == .noMatch)
        #expect(template.match("/weather/london/extra") == .noMatch)
        #expect(template.match("/forecast/london") == .noMatch)
    }

    @Test func match_KeepsPercentEncoding_WhenCapturing() throws {
        let template = try RouteTemplate(parsing: "/weather/{city}")
        #expect(template.match("/weather/new%20york") == .matched(["city": "new%20york"]))
        #expect(template.match("/weather/caf%C3%A9") == .matched(["city": "caf%C3%A9"]))
        #expect(template.match("/weather/a%2Fb") == .rejected("a%2Fb"))
    }

    @Test func match_CapturesRest_WhenCatchAll() throws {
        let template = try RouteTemplate(parsing: "/api/{path...}")
        #expect(template.match("/api/users/42/posts") == .matched(["path": "users/42/posts"]))
        #expect(template.match("/api/") == .matched(["path": ""]))
        #expect(template.match("/api") == .matched(["path": ""]))
        #expect(template.match("/apis/x") == .noMatch)
    }

    @Test func match_RejectsTraversal_WhenDotSegmentsCaptured() throws {
        let catchAll = try RouteTemplate(parsing: "/api/{path...}")
        #expect(catchAll.match("/api/a/../secret") == .rejected(".."))
        #expect(catchAll.match("/api/%2e%2E/secret") == .rejected("%2e%2E"))
        let variable = try RouteTemplate(parsing: "/notes/{id}")
        #expect(variable.match("/notes/..") == .rejected(".."))
        #expect(variable.match("/notes/.") == .rejected("."))
    }

    @Test(arguments: [
        ("weather", "must start with \"/\""),
        ("/weather/{city", "\"{city\": a variable takes a whole segment, like {city}"),
        ("/weather/x{city}", "\"x{city}\": a variable takes a whole segment, like {city}"),
        ("/a/{1x}", "\"{1x}\": a variable name is letters, digits and \"_\", not starting with a digit"),
        ("/a/{x}/{x}", "the name \"x\" is used twice"),
        ("/a/{rest...}/b", "a catch-all {rest...} must be the last segment"),
        ("/a//b", "empty segment (\"//\" or a trailing \"/\")"),
        ("/a/b c", "\"b c\" holds characters not allowed in a path segment"),
        ("/a/..", "\"..\": \".\" and \"..\" segments are not allowed"),
    ])
    func parsing_Throws_WhenTemplateIsBad(text: String, problem: String) {
        #expect(throws: RouteTemplateError(problem)) { try RouteTemplate(parsing: text) }
    }

    @Test(arguments: ["/notes/a", "/notes/..", "/notes", "/notes/a/b", "/other/a", "/api/x/y", "/api/a/../b", "/api"])
    func matchShape_AgreesWithMatch_WithoutCaptures(path: String) throws {
        for template in [try RouteTemplate(parsing: "/notes/{id}"), try RouteTemplate(parsing: "/api/{path...}")] {
            let expected: RouteMatch =
                switch template.match(Substring(path)) {
                case .matched: .matched([:])
                case let other: other
                }
            #expect(template.matchShape(Substring(path)) == expected)
        }
    }

    @Test func collides_IsTrue_WhenSomePathMatchesBoth() throws {
        let weather = try RouteTemplate(parsing: "/weather/{city}")
        #expect(weather.collides(with: try RouteTemplate(parsing: "/weather/london")))
        #expect(weather.collides(with: try RouteTemplate(parsing: "/{any}/{thing}")))
        #expect(weather.collides(with: try RouteTemplate(parsing: "/weather/{path...}")))
        #expect(try RouteTemplate(parsing: "/api/{p...}").collides(with: try RouteTemplate(parsing: "/api")))
        #expect(!weather.collides(with: try RouteTemplate(parsing: "/weather")))
        #expect(!weather.collides(with: try RouteTemplate(parsing: "/locations/{name}")))
        #expect(!weather.collides(with: try RouteTemplate(parsing: "/weather/{city}/hourly")))
    }

    @Test func upstreamTemplate_FillsCaptures_WhenExpanded() throws {
        let route = try RouteTemplate(parsing: "/api/{path...}")
        let upstream = try UpstreamPathTemplate(parsing: "/v2/{path...}", route: route)
        #expect(upstream.expand(["path": "users/new%20user"]) == "/v2/users/new%20user")
        let search = try UpstreamPathTemplate(
            parsing: "/search?q={city}", route: try RouteTemplate(parsing: "/weather/{city}"))
        #expect(search.expand(["city": "paris"]) == "/search?q=paris")
    }

    @Test func upstreamTemplate_Throws_WhenNameNotCaptured() throws {
        let route = try RouteTemplate(parsing: "/weather/{city}")
        #expect(
            throws: RouteTemplateError("{town} is not captured by the route /weather/{city}; it captures: {city}")
        ) { try UpstreamPathTemplate(parsing: "/w/{town}", route: route) }
        #expect(throws: RouteTemplateError("unclosed \"{\"")) {
            try UpstreamPathTemplate(parsing: "/w/{city", route: route)
        }
    }
}
