import HTTP1
import HTTPCaching
import Testing

/// RFC 9110 §13.2.2: preconditions evaluated against a stored representation, in order.
struct ConditionalRequestTests {
    static let etag = "\"v1\""
    static let modified = "Sun, 06 Nov 1994 08:49:37 GMT"
    static let later = "Mon, 07 Nov 1994 08:49:37 GMT"
    static let earlier = "Sat, 05 Nov 1994 08:49:37 GMT"

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let headers: HTTPHeaders
        var etag: String? = ConditionalRequestTests.etag
        let expected: ConditionalRequest.Outcome
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "none", headers: [:], expected: .proceed),
        Case(name: "If-Match strong match", headers: ["If-Match": etag], expected: .proceed),
        Case(name: "If-Match mismatch", headers: ["If-Match": "\"v2\""], expected: .preconditionFailed),
        Case(name: "If-Match is strong: weak tag fails", headers: ["If-Match": "W/\"v1\""],
             expected: .preconditionFailed),
        Case(name: "If-Match * with a representation", headers: ["If-Match": "*"], expected: .proceed),
        Case(name: "If-Unmodified-Since earlier fails", headers: ["If-Unmodified-Since": earlier],
             expected: .preconditionFailed),
        Case(name: "If-Unmodified-Since ignored beside If-Match",
             headers: ["If-Match": etag, "If-Unmodified-Since": earlier], expected: .proceed),
        Case(name: "If-None-Match weak match", headers: ["If-None-Match": "W/\"v1\""], expected: .notModified),
        Case(name: "If-None-Match in a list", headers: ["If-None-Match": "\"a\", \"v1\""], expected: .notModified),
        Case(name: "If-None-Match *", headers: ["If-None-Match": "*"], expected: .notModified),
        Case(name: "If-None-Match mismatch", headers: ["If-None-Match": "\"v2\""], expected: .proceed),
        Case(name: "If-Modified-Since not modified", headers: ["If-Modified-Since": later], expected: .notModified),
        Case(name: "If-Modified-Since modified", headers: ["If-Modified-Since": earlier], expected: .proceed),
        Case(name: "If-Modified-Since ignored beside If-None-Match",
             headers: ["If-None-Match": "\"v2\"", "If-Modified-Since": later], expected: .proceed),
        Case(name: "If-Match failing wins over If-None-Match",
             headers: ["If-Match": "\"v2\"", "If-None-Match": etag], expected: .preconditionFailed),
        Case(name: "names in any case: if-none-match", headers: ["if-none-match": etag], expected: .notModified),
        Case(name: "names in any case: IF-MATCH", headers: ["IF-MATCH": "\"v2\""], expected: .preconditionFailed),
        Case(name: "a precondition after other fields",
             headers: ["Host": "a", "Accept": "*/*", "If-Modified-Since": later], expected: .notModified),
        Case(name: "fields starting with If but no precondition", headers: ["Iffy": "x", "If": "y"], expected: .proceed),
    ]

    @Test(arguments: cases)
    func evaluate_FollowsRFC9110_13_2_2(_ testCase: Case) {
        #expect(
            ConditionalRequest.evaluate(testCase.headers, etag: testCase.etag, lastModified: Self.modified)
                == testCase.expected)
    }
}
