import HTTP1
import Testing

struct HTTPSerializerTests {
    static let date = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func response_WritesHeadAndBody_InDeterministicOrder() {
        let response = HTTPResponse(
            status: 200, headers: ["Content-Type": "application/json", "X-B": "2", "Content-Length": "999"],
            bytes: Array("{}".utf8))
        let bytes = HTTPSerializer.response(response, requestMethod: .get, keepAlive: true, date: Self.date)
        #expect(
            Self.text(bytes)
                == "HTTP/1.1 200 OK\r\nServer: rds-gateway\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
                + "Content-Type: application/json\r\nX-B: 2\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n{}")
    }

    @Test func response_ParsesBack_WithTheResponseParser() {
        let response = HTTPResponse(status: 404, headers: ["ETag": "\"v1\""], bytes: Array("missing".utf8))
        var parser = HTTPResponseParser()
        let bytes = HTTPSerializer.response(response, requestMethod: .get, keepAlive: false)
        guard case .complete(let parsed, let consumed) = parser.parse(bytes) else {
            Issue.record("serialized response does not parse")
            return
        }
        #expect(consumed == bytes.count)
        #expect(parsed.status == 404)
        #expect(parsed.headers["etag"] == "\"v1\"")
        #expect(parsed.headers["connection"] == "close")
        #expect(parsed.headers["date"]?.hasSuffix(" GMT") == true)
        #expect(ParsedResponse(parsed).body == Array("missing".utf8))
    }

    /// The head writes `Server`, the framing fields and `Connection` itself, in any case a
    /// handler spells them; names of the same lengths (`Vary`, `X-Test`, `X-Custom-Name`…) pass.
    @Test func head_ReplacesItsOwnFields_AndKeepsOthersOfTheirLengths() {
        let response = HTTPResponse(
            status: 200,
            headers: [
                "server": "upstream/1", "Vary": "Accept", "X-Test": "1", "CONNECTION": "close", "X-Tracking": "2",
                "content-LENGTH": "7", "X-Custom-Names": "3", "Transfer-encoding": "chunked", "X-Abcdefghijklmno": "4",
            ],
            bytes: Array("{}".utf8))
        let text = Self.text(HTTPSerializer.head(response, requestMethod: .get, keepAlive: true, date: Self.date))
        #expect(
            text
                == "HTTP/1.1 200 OK\r\nServer: rds-gateway\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nVary: Accept\r\n"
                + "X-Test: 1\r\nX-Tracking: 2\r\nX-Custom-Names: 3\r\nX-Abcdefghijklmno: 4\r\n"
                + "Content-Length: 2\r\nConnection: keep-alive\r\n\r\n")
    }

    @Test func response_ToHead_KeepsLengthButNoBody() {
        let response = HTTPResponse(status: 200, bytes: Array("12345".utf8))
        let text = Self.text(HTTPSerializer.response(response, requestMethod: .head, keepAlive: true, date: Self.date))
        #expect(text.hasSuffix("Content-Length: 5\r\nConnection: keep-alive\r\n\r\n"))
    }

    @Test(arguments: [0, 7, 10, 99_999, 1_048_576])
    func head_WritesTheBodysLengthInDecimal(_ length: Int) {
        let response = HTTPResponse(status: 200, bytes: [UInt8](repeating: 0x61, count: length))
        let text = Self.text(HTTPSerializer.head(response, requestMethod: .head, keepAlive: false, date: Self.date))
        #expect(text.hasSuffix("\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n"))
    }

    @Test func response_ToHead_KeepsHandlersLength_WhenBodyEmpty() {
        let response = HTTPResponse(status: 200, headers: ["Content-Length": "42"])
        let text = Self.text(HTTPSerializer.response(response, requestMethod: .head, keepAlive: true, date: Self.date))
        #expect(text.contains("Content-Length: 42\r\n"))
        #expect(!text.contains("Content-Length: 0"))
    }

    @Test(arguments: [204, 304])
    func response_WritesNeitherLengthNorBody_ForBodilessStatus(_ status: Int) {
        let response = HTTPResponse(status: status, bytes: Array("ignored".utf8))
        let text = Self.text(HTTPSerializer.response(response, requestMethod: .get, keepAlive: true, date: Self.date))
        #expect(!text.contains("Content-Length"))
        #expect(text.hasSuffix("Connection: keep-alive\r\n\r\n"))
    }

    @Test func response_WritesChunkedHeadOnly_ForStream() {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        continuation.finish()
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: .stream(stream))
        let text = Self.text(HTTPSerializer.response(response, requestMethod: .get, keepAlive: true, date: Self.date))
        #expect(
            text.hasSuffix(
                "Content-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n"))
    }

    @Test func response_NeutralisesControlBytes_AndDropsBadNames() {
        let response = HTTPResponse(status: 200, headers: ["X-A": "a\r\nSet-Cookie: evil", "Bad Name": "x"])
        let text = Self.text(HTTPSerializer.response(response, requestMethod: .get, keepAlive: true, date: Self.date))
        #expect(text.contains("X-A: a  Set-Cookie: evil\r\n"))
        #expect(!text.contains("Bad Name"))
    }

    @Test func response_DropsHandlersServerAndFraming() {
        let response = HTTPResponse(
            status: 200, headers: ["Server": "x", "Transfer-Encoding": "gzip", "Connection": "upgrade"])
        let text = Self.text(HTTPSerializer.response(response, requestMethod: .get, keepAlive: false, date: Self.date))
        #expect(!text.contains("Server: x") && !text.contains("gzip"))
        #expect(!text.contains("upgrade"))
    }

    /// Fields as long as the serializer's own names (`Date` 4, `Server` 6, `Connection` 10,
    /// `Content-Length` 14, `Transfer-Encoding` 17) are written; the own names, in any case, are
    /// not (a handler's `Date` is written in its own place: see the next test).
    @Test func response_KeepsFieldsAsLongAsItsOwnNames_AndDropsTheOwnInAnyCase() {
        let kept: HTTPHeaders = [
            "ETag": "\"1\"", "Pragma": "no-cache", "Keep-Alive": "timeout=5", "X-Connect1": "y", "Accept-Charset": "utf-8",
            "X-Transfer-Encode": "z",
        ]
        let own: HTTPHeaders = [
            "server": "other", "CONNECTION": "upgrade",
            "content-LENGTH": "777", "Transfer-encoding": "gzip",
        ]
        let response = HTTPResponse(status: 200, headers: HTTPHeaders(kept.fields + own.fields), bytes: [1])
        let text = Self.text(HTTPSerializer.response(response, requestMethod: .get, keepAlive: true, date: Self.date))
        for field in kept { #expect(text.contains("\r\n\(field.name): \(field.value)\r\n")) }
        for field in own { #expect(!text.contains(field.value)) }
        #expect(text.contains("Content-Length: 1\r\nConnection: keep-alive\r\n"))
    }

    /// A cache replays the origin's `Date` (RFC 9110 §6.6.1, RFC 9111 §4): exactly one `Date`, the handler's.
    @Test func response_KeepsHandlersOwnDate_Once() {
        let date = "Sun, 06 Nov 1994 08:49:37 GMT"
        let response = HTTPResponse(status: 200, headers: ["Date": date])
        let text = Self.text(HTTPSerializer.response(response, requestMethod: .get, keepAlive: false, date: Self.date))
        #expect(text.components(separatedBy: "Date: ").count == 2)
        #expect(text.contains("Date: \(date)\r\n"))
    }

    @Test func chunks_DecodeBack_WithTheParser() {
        var bytes = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        let pieces = [Array("data: a\n\n".utf8), [], Array(repeating: UInt8(ascii: "z"), count: 300)]
        for piece in pieces { bytes += HTTPSerializer.chunk(piece) }
        bytes += HTTPSerializer.lastChunk
        var parser = HTTPResponseParser()
        guard case .complete(let response, _) = parser.parse(bytes) else {
            Issue.record("chunks do not parse")
            return
        }
        #expect(ParsedResponse(response).body == pieces.flatMap { $0 })
        #expect(HTTPSerializer.chunk([]).isEmpty)
    }

    @Test func request_ParsesBack_WithTheRequestParser() {
        let request = HTTPRequest(
            method: .post, target: "/notes?x=1", headers: ["Accept": "application/json", "Content-Length": "7"],
            body: Array("{\"a\":1}".utf8))
        var parser = HTTPRequestParser()
        guard case .complete(let parsed, _) = parser.parse(HTTPSerializer.request(request, host: "::1", port: 8080))
        else {
            Issue.record("serialized request does not parse")
            return
        }
        #expect(
            ParsedRequest(parsed)
                == ParsedRequest(
                    "POST", "/notes?x=1", ["Host: [::1]:8080", "Accept: application/json", "Content-Length: 7"],
                    "{\"a\":1}"))
    }

    @Test func request_KeepsOwnHost_AndOmitsLength_ForBodilessGet() {
        let request = HTTPRequest(method: .get, target: "/", headers: ["Host": "example.org"])
        let text = Self.text(HTTPSerializer.request(request, host: "127.0.0.1", port: 80))
        #expect(text == "GET / HTTP/1.1\r\nHost: example.org\r\n\r\n")
    }

    /// Heads are written into memory sized beforehand: every piece must land whole, for any
    /// status, field length and framing.
    @Test(arguments: [200, 299, 404, 599])
    func response_WritesEveryPieceWhole_ForLongFieldsAndAnyStatus(status: Int) {
        let long = String(repeating: "v", count: 5_000)
        let response = HTTPResponse(
            status: status, headers: ["X-Long": long, "Date": "Mon, 07 Nov 1994 08:49:37 GMT", "X-\u{7F}": "y", "X-C": "a\u{1}b"],
            bytes: Array(repeating: 0x61, count: 12_345))
        let text = Self.text(HTTPSerializer.head(response, requestMethod: .get, keepAlive: false, date: Self.date))
        let reason = HTTPSerializer.reasonPhrase(for: status)
        #expect(
            text == "HTTP/1.1 \(status) \(reason)\r\nServer: rds-gateway\r\nDate: Mon, 07 Nov 1994 08:49:37 GMT\r\n"
                + "X-Long: \(long)\r\nX-C: a b\r\nContent-Length: 12345\r\nConnection: close\r\n\r\n")
    }

    /// Field values are tested for control bytes eight at a time: each one, at every position of
    /// values around the word size, becomes a space; tabs and bytes of other scripts stay.
    @Test(arguments: [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0xFF] as [UInt8])
    func head_ReplacesEachControlByteOfAValue_AtAnyPosition(special: UInt8) {
        for length in 1...20 {
            for position in 0..<length {
                var value = [UInt8](repeating: UInt8(ascii: "v"), count: length)
                value[position] = special
                let response = HTTPResponse(status: 200, headers: ["X-V": String(decoding: value, as: UTF8.self)])
                let head = HTTPSerializer.head(response, requestMethod: .get, keepAlive: true, date: Self.date)
                let line = Array("X-V: ".utf8)
                guard let start = head.indices.first(where: { head[$0...].starts(with: line) }) else {
                    Issue.record("no X-V field")
                    return
                }
                let written = Array(head[(start + line.count)...].prefix(while: { $0 != 0x0D || special == 0x0D }))
                let kept = special == 0x09 || special >= 0x80
                let expected = Array(String(decoding: value, as: UTF8.self).utf8).map {
                    $0 == special && !kept ? UInt8(ascii: " ") : $0
                }
                #expect(Array(written.prefix(expected.count)) == expected, "length \(length), position \(position)")
            }
        }
    }

    @Test func request_WritesEveryPieceInItsPlace_WithABody() {
        let request = HTTPRequest(
            method: .patch, target: "/notes/1?x=1",
            headers: ["Connection": "close", "Transfer-Encoding": "chunked", "X-A": "1\r\n2"],
            body: Array("{}".utf8))
        let text = Self.text(HTTPSerializer.request(request, host: "fe80::1", port: 80))
        #expect(
            text == "PATCH /notes/1?x=1 HTTP/1.1\r\nHost: [fe80::1]\r\nConnection: close\r\nX-A: 1  2\r\n"
                + "Content-Length: 2\r\n\r\n{}")
    }

    @Test func date_FormatsIMFFixdate() {
        #expect(Self.text(HTTPDate.format(secondsSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.current().count == 29)
    }

    @Test func connectionKeepsAlive_FollowsVersionAndTokens() {
        let close: HTTPHeaders = ["Connection": "Keep-Alive, close"]
        let keep: HTTPHeaders = ["Connection": " keep-alive "]
        #expect(HTTPHeaders().connectionKeepsAlive(version: .http1_1))
        #expect(!HTTPHeaders().connectionKeepsAlive(version: .http1_0))
        #expect(!close.connectionKeepsAlive(version: .http1_1))
        #expect(keep.connectionKeepsAlive(version: .http1_0))
    }

    /// A lone option (the usual field) is read without splitting, in any case, and decides as a list would.
    @Test func connectionKeepsAlive_ReadsALoneOptionInAnyCase() {
        let keep: HTTPHeaders = ["Connection": "Keep-Alive"]
        let close: HTTPHeaders = ["Connection": "CLOSE"]
        let both: HTTPHeaders = ["Connection": "keep-alive", "connection": "close"]
        let other: HTTPHeaders = ["Connection": "upgrade"]
        #expect(keep.connectionKeepsAlive(version: .http1_0))
        #expect(!close.connectionKeepsAlive(version: .http1_1))
        #expect(!both.connectionKeepsAlive(version: .http1_1))
        #expect(!other.connectionKeepsAlive(version: .http1_0))
    }
}
