import HTTP1
import Testing

struct HTTPRequestParserTests {
    static let validCases: [RequestCase] = [
        .valid("GET", "GET /a?b=1 HTTP/1.1\r\nHost: x\r\n\r\n", ParsedRequest("GET", "/a?b=1", ["Host: x"])),
        .valid(
            "POST with Content-Length", "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
            ParsedRequest("POST", "/p", ["Host: x", "Content-Length: 5"], "hello")),
        .valid(
            "chunked with extension and trailers",
            "PUT / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;name=\"v\"\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Trailer: t\r\n\r\n",
            ParsedRequest(
                "PUT", "/", ["Host: x", "Transfer-Encoding: chunked"], "helloabcdefghijklmnopqrstuvwxyz")),
        .valid(
            "chunked spelled in upper case, in two fields with an empty element",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ,\r\nTransfer-Encoding: CHUNKED\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            ParsedRequest("POST", "/", ["Host: x", "Transfer-Encoding: ,", "Transfer-Encoding: CHUNKED"], "abc")),
        .valid(
            "methods near GET keep their own bytes (GET alone is not decoded)",
            "GETS /1 HTTP/1.1\r\nHost: x\r\n\r\nGE /2 HTTP/1.1\r\nHost: x\r\n\r\nget /3 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GEX /4 HTTP/1.1\r\nHost: x\r\n\r\n",
            ParsedRequest("GETS", "/1", ["Host: x"]), ParsedRequest("GE", "/2", ["Host: x"]),
            ParsedRequest("get", "/3", ["Host: x"]), ParsedRequest("GEX", "/4", ["Host: x"])),
        .valid(
            "framing names in other cases than their usual spelling",
            "POST /1 HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\nab"
                + "PUT /2 HTTP/1.1\r\nHOST: x\r\nTRANSFER-ENCODING: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n",
            ParsedRequest("POST", "/1", ["host: x", "content-length: 2"], "ab"),
            ParsedRequest("PUT", "/2", ["HOST: x", "TRANSFER-ENCODING: chunked"], "z")),
        .valid(
            "HTTP/1.0 without Host", "GET / HTTP/1.0\r\n\r\n", ParsedRequest("GET", "/", [], version: .http1_0)),
        .valid(
            "HTTP/1.2 is read as HTTP/1.x", "GET / HTTP/1.2\r\nHost: x\r\n\r\n",
            ParsedRequest("GET", "/", ["Host: x"], version: HTTPVersion(major: 1, minor: 2))),
        .valid(
            "leading empty line skipped", "\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n",
            ParsedRequest("GET", "/", ["Host: x"])),
        .valid(
            "identical duplicate Content-Lengths",
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\nab",
            ParsedRequest("POST", "/", ["Host: x", "Content-Length: 2, 2", "Content-Length: 2"], "ab")),
        .valid(
            "value whitespace trimmed, inner kept, obs-text kept",
            "GET / HTTP/1.1\r\nHost:x\r\nA: \t b  c \t\r\nB:\r\nC: caf\u{e9}\r\n\r\n",
            ParsedRequest("GET", "/", ["Host: x", "A: b  c", "B: ", "C: caf\u{e9}"])),
        .valid(
            "Content-Length 0 with Expect completes at once",
            "POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n",
            ParsedRequest("POST", "/", ["Host: x", "Expect: 100-continue", "Content-Length: 0"])),
        .valid(
            "three pipelined requests",
            "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nPOST /2 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                + "PUT /3 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n",
            ParsedRequest("GET", "/1", ["Host: x"]),
            ParsedRequest("POST", "/2", ["Host: x", "Content-Length: 3"], "abc"),
            ParsedRequest("PUT", "/3", ["Host: x", "Transfer-Encoding: chunked"], "z")),
        .valid(
            "Content-Length with leading zeros and whitespace",
            "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 003 \r\n\r\nabcPOST /b HTTP/1.1\r\nHost: x\r\n"
                + "Content-Length:\t002\r\n\r\nde",
            ParsedRequest("POST", "/a", ["Host: x", "Content-Length: 003"], "abc"),
            ParsedRequest("POST", "/b", ["Host: x", "Content-Length: 002"], "de")),
    ]

    static let invalidCases: [RequestCase] = [
        .invalid("two Host fields, one in lower case", "GET / HTTP/1.1\r\nHost: x\r\nhost: y\r\n\r\n", "400 invalid_host"),
        .invalid(
            "content-length with transfer-encoding, in lower case",
            "POST / HTTP/1.1\r\nHost: x\r\ncontent-length: 3\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n",
            "400 content_length_with_transfer_encoding"),
        .invalid(
            "Content-Length with Transfer-Encoding",
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "400 content_length_with_transfer_encoding"),
        .invalid(
            "differing Content-Lengths",
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
            "400 content_length_conflict"),
        .invalid(
            "differing Content-Length list", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1, 2\r\n\r\nab",
            "400 content_length_conflict"),
        .invalid(
            "Content-Length with a sign", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +1\r\n\r\na",
            "400 invalid_content_length"),
        .invalid(
            "Content-Length not a number", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1a\r\n\r\na",
            "400 invalid_content_length"),
        .invalid(
            "Content-Length empty", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\r\n",
            "400 invalid_content_length"),
        .invalid(
            "Content-Length empty list element", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1,,1\r\n\r\na",
            "400 invalid_content_length"),
        .invalid(
            "Content-Length of 18 digits over the limit",
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999999999999\r\n\r\n",
            "413 body_too_large"),
        .invalid(
            "Content-Length overflowing",
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n",
            "413 body_too_large"),
        .invalid(
            "gzip coding", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
            "501 unsupported_transfer_coding"),
        .invalid(
            "gzip before chunked", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
            "501 unsupported_transfer_coding"),
        .invalid(
            "chunked with parameters", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked;q=1\r\n\r\n",
            "501 unsupported_transfer_coding"),
        .invalid(
            "chunked twice",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
            "400 invalid_transfer_encoding"),
        .invalid(
            "empty Transfer-Encoding", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \r\n\r\n",
            "400 invalid_transfer_encoding"),
        .invalid(
            "Transfer-Encoding in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "400 invalid_transfer_encoding"),
        .invalid(
            "chunk size not hex", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "400 invalid_chunk_size"),
        .invalid(
            "chunk size empty", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\r\n",
            "400 invalid_chunk_size"),
        .invalid(
            "chunk size with sign", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n",
            "400 invalid_chunk_size"),
        .invalid(
            "chunk size with 0x", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\n",
            "400 invalid_chunk_size"),
        .invalid(
            "chunk size overflowing",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\n",
            "400 invalid_chunk_size"),
        .invalid(
            "chunk size with trailing space",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n",
            "400 invalid_chunk_size"),
        .invalid(
            "chunk extension with a bare CR",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;a\rb\r\n",
            "400 bare_cr"),
        .invalid(
            "chunk data longer than its size",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
            "400 invalid_chunk"),
        .invalid(
            "chunk data without CRLF",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\n0\r\n\r\n",
            "400 invalid_chunk"),
        .invalid(
            "chunk larger than the body limit",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n100001\r\n",
            "413 body_too_large"),
        .invalid(
            "trailer with whitespace before colon",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nA : b\r\n\r\n",
            "400 whitespace_before_colon"),
        .invalid(
            "whitespace before colon", "GET / HTTP/1.1\r\nHost: x\r\nContent-Length : 5\r\n\r\n",
            "400 whitespace_before_colon"),
        .invalid("tab before colon", "GET / HTTP/1.1\r\nHost\t: x\r\n\r\n", "400 whitespace_before_colon"),
        .invalid("space inside a name", "GET / HTTP/1.1\r\nHost: x\r\nA B: c\r\n\r\n", "400 invalid_field_name"),
        .invalid("empty name", "GET / HTTP/1.1\r\nHost: x\r\n: c\r\n\r\n", "400 invalid_field_name"),
        .invalid("no colon", "GET / HTTP/1.1\r\nHost: x\r\nabc\r\n\r\n", "400 invalid_field_name"),
        .invalid("NUL in a name", "GET / HTTP/1.1\r\nHost: x\r\nA\u{0}: c\r\n\r\n", "400 invalid_field_name"),
        .invalid("obs-fold", "GET / HTTP/1.1\r\nHost: x\r\nA: b\r\n c\r\n\r\n", "400 obsolete_line_folding"),
        .invalid(
            "obs-fold with a tab", "GET / HTTP/1.1\r\nHost: x\r\nA: b\r\n\tc\r\n\r\n", "400 obsolete_line_folding"),
        .invalid("bare CR in a value", "GET / HTTP/1.1\r\nHost: x\r\nA: b\rc\r\n\r\n", "400 bare_cr"),
        .invalid("bare CR in the request line", "GET /\r HTTP/1.1\r\nHost: x\r\n\r\n", "400 bare_cr"),
        .invalid("bare LF ending a field", "GET / HTTP/1.1\r\nHost: x\nA: b\r\n\r\n", "400 bare_lf"),
        .invalid("bare LF ending the request line", "GET / HTTP/1.1\nHost: x\r\n\r\n", "400 bare_lf"),
        .invalid("bare LF ending the head", "GET / HTTP/1.1\r\nHost: x\r\n\n", "400 bare_lf"),
        .invalid("NUL in a value", "GET / HTTP/1.1\r\nHost: x\r\nA: b\u{0}c\r\n\r\n", "400 invalid_field_value"),
        .invalid("DEL in a value", "GET / HTTP/1.1\r\nHost: x\r\nA: b\u{7f}\r\n\r\n", "400 invalid_field_value"),
        .invalid("NUL in the target", "GET /a\u{0}b HTTP/1.1\r\nHost: x\r\n\r\n", "400 invalid_target"),
        .invalid("non-ASCII target", "GET /caf\u{e9} HTTP/1.1\r\nHost: x\r\n\r\n", "400 invalid_target"),
        .invalid("two spaces after the method", "GET  / HTTP/1.1\r\nHost: x\r\n\r\n", "400 invalid_target"),
        .invalid("method with a separator", "G(ET / HTTP/1.1\r\nHost: x\r\n\r\n", "400 invalid_method"),
        .invalid("empty method", " / HTTP/1.1\r\nHost: x\r\n\r\n", "400 invalid_method"),
        .invalid("request line without spaces", "GET\r\nHost: x\r\n\r\n", "400 malformed_request_line"),
        .invalid("HTTP/2.0", "GET / HTTP/2.0\r\nHost: x\r\n\r\n", "505 unsupported_version"),
        .invalid("HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "505 unsupported_version"),
        .invalid("HTTP/0.9 version", "GET / HTTP/0.9\r\n\r\n", "505 unsupported_version"),
        .invalid("HTTP/0.9 simple request", "GET /\r\n\r\n", "505 unsupported_version"),
        .invalid("two-digit minor", "GET / HTTP/1.10\r\nHost: x\r\n\r\n", "400 invalid_version"),
        .invalid("lower-case protocol", "GET / http/1.1\r\nHost: x\r\n\r\n", "400 invalid_version"),
        .invalid("trailing space after version", "GET / HTTP/1.1 \r\nHost: x\r\n\r\n", "400 invalid_version"),
        .invalid("HTTP/1.1 without Host", "GET / HTTP/1.1\r\nA: b\r\n\r\n", "400 invalid_host"),
        .invalid("two Hosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "400 invalid_host"),
    ]

    @Test(arguments: validCases)
    func parse_ReturnsRequests_WhenValidAtAnySplit(_ row: RequestCase) {
        let expected = ParserFeed.Outcome(messages: row.requests)
        for (feeding, outcome) in ParserFeed.requests(Array(row.raw.utf8), limits: row.limits) {
            #expect(outcome == expected, "\(feeding)")
        }
    }

    @Test(arguments: invalidCases)
    func parse_ReturnsError_WhenInvalidAtAnySplit(_ row: RequestCase) {
        for (feeding, outcome) in ParserFeed.requests(Array(row.raw.utf8), limits: row.limits) {
            #expect(outcome.error == row.error, "\(feeding)")
            #expect(outcome.messages.isEmpty, "\(feeding)")
        }
    }
}
