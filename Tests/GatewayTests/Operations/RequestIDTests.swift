import Gateway
import Testing

struct RequestIDTests {
    @Test(arguments: ["a", "abc-123_DEF.x", String(repeating: "z", count: 128)])
    func init_KeepsTheClientsID_WhenValid(header: String) {
        #expect(RequestID(header: header).value == header)
    }

    @Test(arguments: [
        "", String(repeating: "z", count: 129), "has space", "quote\"d", "line\nbreak", "ünïcode", "semi;colon",
    ])
    func init_GeneratesANewID_WhenTheClientsIsInvalid(header: String) {
        let id = RequestID(header: header)
        #expect(id.value != header)
        #expect(RequestID(validating: id.value) != nil)
    }

    @Test func generate_Makes32HexDigits_DifferentEachTime() {
        let ids = (0..<100).map { _ in RequestID.generate().value }
        #expect(Set(ids).count == 100)
        #expect(ids.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) && $0 == $0.lowercased() })
    }

    @Test func init_Generates_WhenNoHeaderIsSent() {
        #expect(RequestID(header: nil).value.count == 32)
    }
}
