import HTTP1
import Testing

/// Each limit at exactly its value (accepted) and one byte or one field over (rejected), at every split.
struct HTTPRequestParserLimitsTests {
    /// `GET /aaa… HTTP/1.1` exactly `length` bytes long.
    static func requestLine(length: Int) -> String {
        "GET /" + String(repeating: "a", count: length - 14) + " HTTP/1.1"
    }

    static func outcomes(_ raw: String, _ limits: HTTPParserLimits) -> [(String, ParserFeed.Outcome<ParsedRequest>)] {
        ParserFeed.requests(Array(raw.utf8), limits: limits)
    }

    @Test func parse_AcceptsRequestLine_WhenExactlyAtLimit() {
        let line = Self.requestLine(length: 40)
        #expect(line.utf8.count == 40)
        for (feeding, outcome) in Self.outcomes(line + "\r\nHost: x\r\n\r\n", HTTPParserLimits(maxRequestLineBytes: 40))
        {
            #expect(outcome.messages.map(\.target) == ["/" + String(repeating: "a", count: 26)], "\(feeding)")
        }
    }

    @Test func parse_Returns414_WhenRequestLineOneOverLimit() {
        let raw = Self.requestLine(length: 41) + "\r\nHost: x\r\n\r\n"
        for (feeding, outcome) in Self.outcomes(raw, HTTPParserLimits(maxRequestLineBytes: 40)) {
            #expect(outcome.error == "414 request_line_too_long", "\(feeding)")
        }
    }

    @Test func parse_Returns414_BeforeTheLineEnds_WhenAlreadyTooLong() {
        var parser = HTTPRequestParser(limits: HTTPParserLimits(maxRequestLineBytes: 40))
        let result = parser.parse(Array(("GET /" + String(repeating: "a", count: 60)).utf8))
        guard case .invalid(let error) = result else {
            Issue.record("expected 414, got \(result)")
            return
        }
        #expect(error.status == 414)
    }

    /// A header section of exactly `size` bytes: `Host: x\r\n`, padding fields, the final CRLF.
    static func headerSection(size: Int) -> String {
        let fixed = "Host: x\r\n".utf8.count + "P: \r\n".utf8.count + 2
        return "Host: x\r\nP: " + String(repeating: "p", count: size - fixed) + "\r\n\r\n"
    }

    @Test func parse_AcceptsHeaderSection_WhenExactlyAtLimit() {
        let section = Self.headerSection(size: 100)
        #expect(section.utf8.count == 100)
        for (feeding, outcome) in Self.outcomes(
            "GET / HTTP/1.1\r\n" + section, HTTPParserLimits(maxHeaderSectionBytes: 100))
        {
            #expect(outcome.messages.count == 1, "\(feeding)")
            #expect(outcome.error == nil, "\(feeding)")
        }
    }

    @Test func parse_Returns431_WhenHeaderSectionOneOverLimit() {
        let raw = "GET / HTTP/1.1\r\n" + Self.headerSection(size: 101)
        for (feeding, outcome) in Self.outcomes(raw, HTTPParserLimits(maxHeaderSectionBytes: 100)) {
            #expect(outcome.error == "431 header_section_too_large", "\(feeding)")
        }
    }

    static func request(fieldCount: Int) -> String {
        "GET / HTTP/1.1\r\nHost: x\r\n" + (1..<fieldCount).map { "F\($0): v\r\n" }.joined() + "\r\n"
    }

    @Test func parse_AcceptsHeaders_WhenCountExactlyAtLimit() {
        for (feeding, outcome) in Self.outcomes(Self.request(fieldCount: 5), HTTPParserLimits(maxHeaderCount: 5)) {
            #expect(outcome.messages.map(\.headers.count) == [5], "\(feeding)")
        }
    }

    @Test func parse_Returns431_WhenOneHeaderOverLimit() {
        for (feeding, outcome) in Self.outcomes(Self.request(fieldCount: 6), HTTPParserLimits(maxHeaderCount: 5)) {
            #expect(outcome.error == "431 too_many_headers", "\(feeding)")
        }
    }

    @Test func parse_Returns431_WhenTrailersOverCount() {
        let raw = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n"
        for (feeding, outcome) in Self.outcomes(raw, HTTPParserLimits(maxHeaderCount: 2)) {
            #expect(outcome.error == "431 too_many_headers", "\(feeding)")
        }
    }

    @Test(arguments: [10, 11])
    func parse_EnforcesBodyLimit_WithContentLength(_ length: Int) {
        let raw =
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n" + String(repeating: "b", count: length)
        for (feeding, outcome) in Self.outcomes(raw, HTTPParserLimits(maxBodyBytes: 10)) {
            #expect(outcome.error == (length > 10 ? "413 body_too_large" : nil), "\(feeding)")
            #expect(outcome.messages.map(\.body.count) == (length > 10 ? [] : [length]), "\(feeding)")
        }
    }

    @Test(arguments: [10, 11])
    func parse_EnforcesBodyLimit_WithChunks(_ length: Int) {
        let raw =
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "4\r\nbbbb\r\n\(String(length - 4, radix: 16))\r\n\(String(repeating: "c", count: length - 4))\r\n0\r\n\r\n"
        for (feeding, outcome) in Self.outcomes(raw, HTTPParserLimits(maxBodyBytes: 10)) {
            #expect(outcome.error == (length > 10 ? "413 body_too_large" : nil), "\(feeding)")
            #expect(outcome.messages.map(\.body.count) == (length > 10 ? [] : [length]), "\(feeding)")
        }
    }
}
