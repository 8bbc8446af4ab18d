import HTTP1
import Testing

struct HTTPResponseParserTests {
    static let cases: [ResponseCase] = [
        ResponseCase(
            name: "Content-Length", raw: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi",
            responses: [ParsedResponse(200, ["Content-Length: 2"], "hi")]),
        ResponseCase(
            name: "chunked with trailers",
            raw:
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n4;x=y\r\n you\r\n0\r\nEtag: \"a\"\r\n\r\n",
            responses: [ParsedResponse(200, ["Transfer-Encoding: chunked"], "hi you")]),
        ResponseCase(
            name: "read until close", raw: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it",
            responses: [ParsedResponse(200, ["Content-Type: text/plain"], "all of it")]),
        ResponseCase(
            name: "HEAD ignores Content-Length",
            raw: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
            requestMethod: .head,
            responses: [ParsedResponse(200, ["Content-Length: 5"]), ParsedResponse(404, ["Content-Length: 0"])]),
        ResponseCase(
            name: "204 and 304 have no body",
            raw: "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\nETag: x\r\n\r\n",
            responses: [ParsedResponse(204, []), ParsedResponse(304, ["ETag: x"])]),
        ResponseCase(
            name: "interim 100 then the answer",
            raw: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n",
            responses: [ParsedResponse(100, []), ParsedResponse(201, ["Content-Length: 0"])]),
        ResponseCase(
            name: "status line without reason", raw: "HTTP/1.0 200\r\nContent-Length: 1\r\n\r\nx",
            responses: [ParsedResponse(200, ["Content-Length: 1"], "x")]),
        ResponseCase(
            name: "truncated Content-Length body", raw: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
            leftover: 44),
        ResponseCase(
            name: "CL with TE", raw: "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
            error: "400 content_length_with_transfer_encoding"),
        ResponseCase(
            name: "gzip coding", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
            error: "501 unsupported_transfer_coding"),
        ResponseCase(name: "HTTP/2 status line", raw: "HTTP/2.0 200 OK\r\n\r\n", error: "505 unsupported_version"),
        ResponseCase(name: "two-digit status", raw: "HTTP/1.1 20 OK\r\n\r\n", error: "400 malformed_status_line"),
        ResponseCase(name: "status 099", raw: "HTTP/1.1 099 X\r\n\r\n", error: "400 malformed_status_line"),
        ResponseCase(name: "NUL in reason", raw: "HTTP/1.1 200 O\u{0}K\r\n\r\n", error: "400 malformed_status_line"),
        ResponseCase(
            name: "obs-fold", raw: "HTTP/1.1 200 OK\r\nA: b\r\n c\r\n\r\n", error: "400 obsolete_line_folding"),
        ResponseCase(
            name: "invalid chunk size", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nxyz\r\n",
            error: "400 invalid_chunk_size"),
    ]

    @Test(arguments: cases)
    func parse_MatchesTable_AtAnySplit(_ row: ResponseCase) {
        let expected = ParserFeed.Outcome(messages: row.responses, error: row.error, leftover: row.leftover)
        for (feeding, outcome) in ParserFeed.responses(Array(row.raw.utf8), requestMethod: row.requestMethod) {
            #expect(outcome == expected, "\(feeding)")
        }
    }

    @Test func parse_WaitsForClose_WhenBodyRunsUntilClose() {
        var parser = HTTPResponseParser()
        let bytes = Array("HTTP/1.1 200 OK\r\n\r\npartial".utf8)
        guard case .incomplete = parser.parse(bytes) else {
            Issue.record("expected .incomplete before the end of the stream")
            return
        }
        guard case .complete(let response, let consumed) = parser.parse(bytes, endOfStream: true) else {
            Issue.record("expected .complete at the end of the stream")
            return
        }
        #expect(ParsedResponse(response) == ParsedResponse(200, [], "partial"))
        #expect(consumed == bytes.count)
    }

    @Test func parse_Returns413_WhenUntilCloseBodyPassesLimit() {
        var parser = HTTPResponseParser(limits: HTTPParserLimits(maxBodyBytes: 4))
        guard case .invalid(let error) = parser.parse(Array("HTTP/1.1 200 OK\r\n\r\n12345".utf8)) else {
            Issue.record("expected .invalid")
            return
        }
        #expect(error.code == .bodyTooLarge)
    }

    @Test func version_IsTheLastResponses() {
        var parser = HTTPResponseParser()
        #expect(parser.version == nil)
        _ = parser.parse(Array("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n".utf8))
        #expect(parser.version == .http1_0)
    }
}
