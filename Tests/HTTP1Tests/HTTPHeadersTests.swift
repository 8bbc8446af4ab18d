import HTTP1
import Testing

struct HTTPHeadersTests {
    @Test func subscript_IgnoresCase_AndKeepsOrder() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "X-A": "1"]
        headers.add(name: "x-a", value: "2")
        #expect(headers["CONTENT-type"] == "text/plain")
        #expect(headers.values(for: "X-a") == ["1", "2"])
        headers["X-A"] = "3"
        #expect(headers.values(for: "x-a") == ["3"])
        #expect(headers.fields.map(\.name) == ["Content-Type", "X-A"])
    }

    @Test func subscript_DoesNotFoldNonLetters() {
        let headers: HTTPHeaders = ["a[": "1"]
        #expect(headers["a{"] == nil)
    }

    @Test func lookup_IgnoresCase_OfNamesLongerThanASmallString_AndTellsEqualLengthsApart() {
        let headers: HTTPHeaders = ["Access-Control-Allow-Credentials": "true", "X-Long-Header-Name-AAAA": "a"]
        #expect(headers["access-control-allow-credentials"] == "true")
        #expect(headers["X-LONG-HEADER-NAME-aaaa"] == "a")
        #expect(headers["X-Long-Header-Name-AAAB"] == nil)
        #expect(!headers.contains("Access-Control-Allow-Credential_"))
    }
}
