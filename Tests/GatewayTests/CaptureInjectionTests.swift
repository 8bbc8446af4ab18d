import Foundation
import Gateway
import HTTP1
import Testing

/// Captures are values: a capture cannot add query parameters, walk out of the upstream folder or
/// cut the upstream target short.
struct CaptureInjectionTests {
    @Test(arguments: [
        "..", ".", "%2e%2e", "%2E%2e", "..%2f", "..%2F", "%2e%2e%2f", "..;", "..;jsessionid=1", ".;x", "%2e%2e;",
        "%252e%252e", "%252E%252e", "%25252e%25252e", "%2525252e%2525252e", "a%2fb", "a%2Fb", "a%5cb", "a%5C..",
        "a%00", "%252f", "%255c", "a\\b", "%25%32%65%25%32%65",
    ])
    func match_RejectsSegmentsThatWalkOrSplitThePath(segment: String) throws {
        let variable = try RouteTemplate(parsing: "/files/{name}")
        #expect(variable.match(Substring("/files/" + segment)) == .rejected(segment))
        let catchAll = try RouteTemplate(parsing: "/api/{path...}")
        #expect(catchAll.match(Substring("/api/a/" + segment + "/b")) == .rejected(segment))
    }

    @Test(arguments: ["london", "new%20york", "v1.2", "...", "a;b", "caf%C3%A9", "%41", "report.json", "%25", "50%"])
    func match_KeepsOrdinarySegmentsAsSent(segment: String) throws {
        let variable = try RouteTemplate(parsing: "/files/{name}")
        #expect(variable.match(Substring("/files/" + segment)) == .matched(["name": segment]))
    }

    @Test(arguments: [
        ("paris&admin=true", "/echo?q=paris%26admin%3Dtrue"),
        ("a=b", "/echo?q=a%3Db"),
        ("one+two", "/echo?q=one%2Btwo"),
        ("new%20york", "/echo?q=new%20york"),
        ("caf%C3%A9", "/echo?q=caf%C3%A9"),
        ("100%25", "/echo?q=100%25"),
        ("50%", "/echo?q=50%25"),
        ("x%23y", "/echo?q=x%23y"),
        ("%26admin%3Dtrue", "/echo?q=%26admin%3Dtrue"),
        ("plain-value_1.2~", "/echo?q=plain-value_1.2~"),
    ])
    func expand_EncodesAQueryCaptureAsOneValue(capture: String, target: String) throws {
        let route = try RouteTemplate(parsing: "/search/{q}")
        let template = try UpstreamPathTemplate(parsing: "/echo?q={q}", route: route)
        #expect(template.expand(["q": capture]) == target)
    }

    @Test func expand_KeepsAPathCaptureAsSent() throws {
        let route = try RouteTemplate(parsing: "/search/{city}/{rest...}")
        let template = try UpstreamPathTemplate(parsing: "/v1/{city}/{rest...}?city={city}&x=1", route: route)
        #expect(
            template.expand(["city": "new%20york&x", "rest": "a/b%20c"])
                == "/v1/new%20york&x/a/b%20c?city=new%20york%26x&x=1")
    }

    @Test func gateway_SendsCapturesAsValues_AndRefusesTraversalAndFragments() async throws {
        let upstream = try RawSocketUpstream(
            response: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nCache-Control: no-store\r\nContent-Length: 2\r\n\r\nok")
        defer { upstream.stop() }
        let gateway = try await EndToEndGateway.start(
            services: ["up": ServiceSettings(baseURL: "http://127.0.0.1:\(upstream.port)")],
            repositories: [
                "search": RepositorySettings(route: "/search/{q}", service: "up", upstreamPath: "/echo?q={q}"),
                "files": RepositorySettings(route: "/files/{path...}", service: "up"),
            ])

        #expect(try await gateway.get("/search/paris&admin=true").status == 200)
        #expect(try await gateway.get("/files/docs/a%20b.txt").status == 200)
        let heads = await upstream.requests(atLeast: 2)
        let targets = heads.map { $0.split(separator: " ").dropFirst().first.map(String.init) ?? "" }
        #expect(targets == ["/echo?q=paris%26admin%3Dtrue", "/files/docs/a%20b.txt"])

        for target in ["/files/..%2fetc/passwd", "/files/%2e%2e%2fetc", "/files/..;/admin", "/files/%252e%252e/x"] {
            let refused = try await gateway.get(target)
            #expect(refused.status == 400, "\(target)")
            #expect(refused.json["code"] as? String == "path_traversal", "\(target)")
        }
        for target in ["/files/a#b", "/search/x?y=1#frag"] {
            let refused = try await gateway.get(target)
            #expect(refused.status == 400, "\(target)")
            #expect(refused.json["code"] as? String == "bad_request", "\(target)")
        }
        #expect(upstream.requests.count == 2)
        await gateway.stop()
    }
}
