import Testing

@testable import Gateway

struct HMACSHA256Tests {
    @Test func code_MatchesRFC4231TestCases() {
        let second = HMACSHA256.code(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(HMACSHA256.hex(second) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        let longKey = [UInt8](repeating: 0xaa, count: 131)
        let sixth = HMACSHA256.code(
            key: longKey, message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
        #expect(HMACSHA256.hex(sixth) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func constantTimeEquals_ComparesEveryByteAndTheLength() {
        #expect(HMACSHA256.constantTimeEquals(Array("abc".utf8), Array("abc".utf8)))
        #expect(!HMACSHA256.constantTimeEquals(Array("abc".utf8), Array("abd".utf8)))
        #expect(!HMACSHA256.constantTimeEquals(Array("abc".utf8), Array("abcd".utf8)))
        #expect(!HMACSHA256.constantTimeEquals([], Array("a".utf8)))
    }
}
