import HTTP1
import HTTPCaching
import Testing

/// RFC 9111 §4.1: the request fields a response varies on, read from every `Vary` line.
struct VaryFieldTests {
    @Test(arguments: [
        ([] as [String], [] as Set<String>, false),
        (["Accept"], ["accept"], false),
        (["accept-language , X-Trace", "ACCEPT"], ["accept-language", "x-trace", "accept"], false),
        (["Accept, *"], ["accept"], true),
        (["*"], [], true),
        ([" , "], [], false),
    ])
    func names_AreLowerCasedMembersOfEveryLine(_ lines: [String], _ names: Set<String>, _ wildcard: Bool) {
        let vary = VaryField(HTTPHeaders(lines.map { (name: "Vary", value: $0) }))
        #expect(vary.names == names)
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
