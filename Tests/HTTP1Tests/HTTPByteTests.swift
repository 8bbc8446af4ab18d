import Testing

@testable import HTTP1

struct HTTPByteTests {
    /// Every byte against RFC 9110 §5.6.2: `tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+"
    /// / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA`.
    @Test func isToken_HoldsForTcharOnly_OverEveryByte() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        let wrong = (0...255).map(UInt8.init).filter { HTTPByte.isToken($0) != tchar.contains($0) }
        #expect(wrong.isEmpty, "bytes classified wrongly: \(wrong)")
    }
}
