import HTTP1
import Testing

/// A request's path and query come from its target, also after the target changes.
struct HTTPRequestTests {
    @Test(arguments: [
        ("/weather/london?units=metric&x=1", "/weather/london", "units=metric&x=1" as String?),
        ("/weather/london", "/weather/london", nil), ("/a?", "/a", ""), ("?q", "", "q"), ("/a?b?c", "/a", "b?c"),
    ])
    func pathAndQuery_SplitTheTargetAtItsFirstQuestionMark(target: String, path: String, query: String?) {
        let request = HTTPRequest(method: .get, target: target)
        #expect(request.path == path)
        #expect(request.query.map(String.init) == query)
    }

    @Test func pathAndQuery_FollowATargetSetLater() {
        var request = HTTPRequest(method: .get, target: "/old/path?a=1")
        request.target = "/new"
        #expect(request.path == "/new")
        #expect(request.query == nil)
        request.target += "/longer?b=2"
        #expect(request.path == "/new/longer")
        #expect(request.query == "b=2")
    }
}
