import HTTP1
import HTTPCaching
import Testing

/// RFC 9111 §5.2.1: the client's request directives against a stored response.
struct RequestDirectivesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let headers: HTTPHeaders
        var age: Double = 10
        var timeToLive: Double = 50
        var mustRevalidate = false
        let expected: RequestDirectives.Verdict
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "none: the cache decides when stale", headers: [:], timeToLive: -1, expected: .cachePolicy),
        Case(name: "none: fresh is used", headers: [:], expected: .useStored),
        Case(name: "§5.2.1.4 no-cache", headers: ["Cache-Control": "no-cache"], expected: .revalidate),
        Case(name: "§5.4 Pragma without Cache-Control", headers: ["Pragma": "no-cache"], expected: .revalidate),
        Case(name: "§5.4 Pragma ignored beside Cache-Control",
             headers: ["Pragma": "no-cache", "Cache-Control": "max-stale"], expected: .useStored),
        Case(name: "§5.2.1.1 max-age younger", headers: ["Cache-Control": "max-age=30"], expected: .useStored),
        Case(name: "§5.2.1.1 max-age older", headers: ["Cache-Control": "max-age=5"], expected: .revalidate),
        Case(name: "§5.2.1.1 max-age=0 at age 0", headers: ["Cache-Control": "max-age=0"], age: 0,
             expected: .useStored),
        Case(name: "§5.2.1.3 min-fresh met", headers: ["Cache-Control": "min-fresh=20"], expected: .useStored),
        Case(name: "§5.2.1.3 min-fresh not met", headers: ["Cache-Control": "min-fresh=60"], expected: .revalidate),
        Case(name: "§5.2.1.2 max-stale within", headers: ["Cache-Control": "max-stale=30"], timeToLive: -20,
             expected: .useStored),
        Case(name: "§5.2.1.2 max-stale beyond", headers: ["Cache-Control": "max-stale=10"], timeToLive: -20,
             expected: .cachePolicy),
        Case(name: "§5.2.1.2 max-stale unbounded", headers: ["Cache-Control": "max-stale"], timeToLive: -9_999,
             expected: .useStored),
        Case(name: "§4.2.4 must-revalidate beats max-stale", headers: ["Cache-Control": "max-stale"],
             timeToLive: -1, mustRevalidate: true, expected: .cachePolicy),
    ]

    @Test(arguments: cases)
    func verdict_FollowsRFC9111_5_2_1(_ testCase: Case) {
        let directives = RequestDirectives(testCase.headers)
        #expect(
            directives.verdict(age: testCase.age, timeToLive: testCase.timeToLive, mustRevalidate: testCase.mustRevalidate)
                == testCase.expected)
    }

    @Test func flags_ReadOnlyIfCachedAndNoStore() {
        let directives = RequestDirectives(["Cache-Control": "only-if-cached, no-store"])
        #expect(directives.onlyIfCached && directives.noStore && !directives.isEmpty)
        #expect(RequestDirectives(["Cache-Control": "foo"]).isEmpty)
        #expect(RequestDirectives(["Pragma": "x"]).isEmpty)
    }
}
