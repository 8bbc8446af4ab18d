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

    /// ``HTTP1/HTTPHeaders/equalsIgnoringCase(_:_:)``, checked to agree with ``HTTP1/HTTPHeaders/equalsIgnoringCase(_:usually:)``.
    static func same(_ lhs: String, _ rhs: String) -> Bool {
        let result = HTTPHeaders.equalsIgnoringCase(lhs, rhs)
        #expect(HTTPHeaders.equalsIgnoringCase(lhs, usually: rhs) == result, "\(lhs) \(rhs)")
        return result
    }

    /// Names of every length up to 24 (compared byte by byte below eight, a word at a time from
    /// eight on), differing at every position: only in the case of a letter they are equal; in
    /// bit 0x20 of anything else (`^` and `~`, `@` and `` ` ``, `_` and DEL, the bytes of `é`
    /// and `É`) or in any other bit, not. The form for usual spellings
    /// (``HTTPHeaders/equalsIgnoringCase(_:usually:)``) agrees every time.
    @Test(arguments: 1...24)
    func equalsIgnoringCase_FoldsLettersOnly_AtEveryPosition(length: Int) {
        let name = Array("x-abcdefghijklmnopqrstuvwxyz".utf8.prefix(length))
        func replacing(_ position: Int, with byte: UInt8, in base: [UInt8] = name) -> String {
            var bytes = base
            bytes[position] = byte
            return String(decoding: bytes, as: UTF8.self)
        }
        let original = String(decoding: name, as: UTF8.self)
        #expect(Self.same(original, String(decoding: name, as: UTF8.self)))
        for position in 0..<length {
            let upper = replacing(position, with: name[position] & ~0x20)
            #expect(Self.same(original, upper) == (name[position] != UInt8(ascii: "-")))
            #expect(!Self.same(original, replacing(position, with: name[position] ^ 0x01)))
            for (a, b) in [("^", "~"), ("@", "`"), ("_", "\u{7F}")] {
                #expect(
                    !Self.same(
                        replacing(position, with: UInt8(ascii: Unicode.Scalar(a)!)),
                        replacing(position, with: UInt8(ascii: Unicode.Scalar(b)!))))
            }
        }
        if length >= 2 {
            // `é` (C3 A9) and `É` (C3 89) in the last two bytes: they differ in bit 0x20 of a non-ASCII byte.
            var small = name
            small[length - 2] = 0xC3
            small[length - 1] = 0xA9
            #expect(!Self.same(String(decoding: small, as: UTF8.self), replacing(length - 1, with: 0x89, in: small)))
        }
    }
}
