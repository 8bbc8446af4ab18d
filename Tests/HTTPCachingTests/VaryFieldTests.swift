import HTTP1
import HTTPCaching
import Testing

/// RFC 9111 §4.1: the request fields a response varies on, read from every `Vary` line.
struct VaryFieldTests {
    @Test(arguments: [
        ([], [], false),
        (["Accept"], ["accept"], false),
        (["accept-language , X-Trace", "ACCEPT"], ["accept-language", "x-trace", "accept"], false),
        (["Accept, *"], ["accept"], true),
        (["*"], [], true),
        ([" , "], [], false),
    ] as [([String], [String], Bool)])
    func names_AreLowerCasedMembersOfEveryLine(_ lines: [String], _ names: [String], _ wildcard: Bool) {
        let vary = VaryField(HTTPHeaders(lines.map { (name: "Vary", value: $0) }))
        #expect(vary.names == Set(names))
        #expect(vary.isWildcard == wildcard)
    }

    @Test func varies_OnAnyOfTheFields_OrAlwaysOnStar() {
        let vary = VaryField(["Vary": "Accept, X-Trace"])
        #expect(vary.varies(onAnyOf: ["x-trace", "cookie"]))
        #expect(!vary.varies(onAnyOf: ["cookie"]))
        #expect(!vary.varies(onAnyOf: []))
        #expect(VaryField(["Vary": "*"]).varies(onAnyOf: []))
    }
}

extension VaryFieldTests {
    @Test(arguments: [("a", "a"), (" a ,b  ", "a, b"), ("en-GB,  fr;q=0.5", "en-GB, fr;q=0.5"), ("", "")])
    func normalized_TrimsListMembers_KeepsCase(_ value: String, _ expected: String) {
        #expect(VaryField.normalized(value) == expected)
    }
}
