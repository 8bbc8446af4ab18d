import Foundation
import HTTP1
import HTTPCaching
import Testing

/// RFC 9111 §4.4: `Location` and `Content-Location` of a non-error answer, same origin only.
struct InvalidationTargetsTests {
    static let request = URL(string: "http://api.example:8080/v1/items/a")!

    @Test(arguments: [
        (["Location": "/v1/items/b"], 201, ["http://api.example:8080/v1/items/b"]),
        (["Content-Location": "c"], 200, ["http://api.example:8080/v1/items/c"]),
        (["Location": "http://API.example:8080/v1/x?q=1"], 303, ["http://API.example:8080/v1/x?q=1"]),
        (["Location": "http://other.example:8080/v1/x"], 201, []),
        (["Location": "http://api.example:9090/v1/x"], 201, []),
        (["Location": "https://api.example:8080/v1/x"], 201, []),
        (["Location": "/v1/items/b"], 409, []),
        ([:], 200, []),
    ])
    func uris_AreSameOriginTargetsOfNonErrorAnswers(_ fields: [String: String], _ status: Int, _ expected: [String]) {
        let headers = HTTPHeaders(fields.map { (name: $0.key, value: $0.value) })
        let uris = InvalidationTargets.uris(in: headers, status: status, requestURL: Self.request)
        #expect(uris.map(\.absoluteString) == expected)
    }
}
