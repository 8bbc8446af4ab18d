import HTTPCaching
import Testing

struct CacheControlTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let field: String
        let expected: [CacheDirective]
        var testDescription: String { field }
    }

    static let cases: [Case] = [
        Case(field: "max-age=60", expected: [CacheDirective(name: "max-age", value: "60")]),
        Case(field: "MAX-AGE=60, No-Store", expected: [.init(name: "max-age", value: "60"), .init(name: "no-store")]),
        Case(field: "  public ,, ,max-age = 5 ", expected: [.init(name: "public"), .init(name: "max-age", value: "5")]),
        Case(field: #"private="Set-Cookie, X-Id", max-age=1"#,
             expected: [.init(name: "private", value: "Set-Cookie, X-Id"), .init(name: "max-age", value: "1")]),
        Case(field: #"ext="a \"quoted\" \\ value""#, expected: [.init(name: "ext", value: #"a "quoted" \ value"#)]),
        Case(field: #"ext="unterminated, max-age=3"#, expected: [.init(name: "ext", value: "unterminated, max-age=3")]),
        Case(field: "@@@, max-age=7", expected: [.init(name: "max-age", value: "7")]),
        Case(field: "max-age 60, no-cache", expected: [.init(name: "no-cache")]),
        Case(field: #"garbage "in, quotes", s-maxage=9"#, expected: [.init(name: "s-maxage", value: "9")]),
        Case(field: "no-cache=, must-revalidate",
             expected: [.init(name: "no-cache", value: ""), .init(name: "must-revalidate")]),
        Case(field: "", expected: []),
        Case(field: ",,,", expected: []),
        Case(field: "max-age=60\u{00e9}, public", expected: [.init(name: "public")]),
    ]

    @Test(arguments: cases)
    func parse_YieldsDirectives_ForFieldValue(_ testCase: Case) {
        #expect(CacheControl(testCase.field).directives == testCase.expected)
    }

    /// RFC 9111 §4.2.1: a directive repeated with different values makes the response stale;
    /// the same value repeated counts once.
    @Test(arguments: [
        (["max-age=60, max-age=0"], 0), (["max-age=0", "max-age=60"], 0), (["max-age=60", "max-age=60"], 60),
        (["max-age=60, max-age=30"], 0), (["max-age=60, max-age"], 0),
    ])
    func deltaSeconds_RepeatedWithOtherValue_IsStale_RFC9111_4_2_1(_ fields: [String], _ seconds: Int) {
        #expect(CacheControl(fieldValues: fields).maxAge == seconds)
    }

    @Test(arguments: [
        ("max-age=abc", 0), ("max-age=-1", 0), ("max-age", 0), ("max-age=\"30\"", 30), ("max-age=1.5", 0),
        ("max-age=99999999999999999999999", 2_147_483_648), ("max-age=4294967296", 2_147_483_648),
    ])
    func deltaSeconds_ReadsConservatively_WhenValueIsOdd(_ field: String, _ seconds: Int) {
        #expect(CacheControl(field).maxAge == seconds)
    }

    @Test func flags_AreCaseInsensitive_AcrossFieldLines() {
        let control = CacheControl(fieldValues: ["Public", "S-MaxAge=10, Proxy-Revalidate", "stale-if-error=30"])
        #expect(control.isPublic)
        #expect(control.sharedMaxAge == 10)
        #expect(control.proxyRevalidate)
        #expect(control.staleIfError == 30)
        #expect(!control.noStore)
        #expect(!control.isPrivate)
        #expect(control.staleWhileRevalidate == nil)
        #expect(control.value(of: "S-MAXAGE") == "10")
    }
}
