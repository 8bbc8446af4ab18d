import HTTP1
import Testing

/// A response read with its field lines kept (``HTTPFieldLines``) must make, from them, exactly
/// the fields a parser not keeping them makes, and a server writing the lines must write the
/// very head it writes for those fields.
struct HTTPFieldLinesTests {
    /// Heads as upstreams send them: odd whitespace, names in any case, repeated names, framing
    /// and hop-by-hop fields, several `Date`s, `Server`, a chunked body, several messages.
    static let raws: [String] = [
        "HTTP/1.1 200 OK\r\nServer: origin\r\nDate: Mon, 07 Nov 1994 08:49:37 GMT\r\nContent-Type: text/plain\r\n"
            + "Content-Length: 2\r\nETag: \"v1\"\r\nCache-Control: no-store\r\nConnection: keep-alive\r\n\r\nhi",
        "HTTP/1.1 404 Not Found\r\nx-lower:   spaced value \t\r\nX-MiXeD:a\r\nx-mixed: b\r\nDATE: Tue, 08 Nov 1994 08:49:37 GMT\r\n"
            + "Date: Wed, 09 Nov 1994 08:49:37 GMT\r\nTransfer-Encoding: chunked\r\nKeep-Alive: timeout=5\r\n\r\n"
            + "3\r\nabc\r\n0\r\n\r\n",
        "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-1/4\r\nEmpty:\r\nContent-Length: 2\r\n\r\nab"
            + "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close, X-Private\r\nX-Private: p\r\n\r\n",
    ]

    /// A response read with its lines kept, reduced to comparable values.
    struct Kept: Equatable {
        var status: Int
        var fields: [String]
        var lines: [String]?
        var body: [UInt8]

        init(_ response: HTTPResponse) {
            let parsed = ParsedResponse(response)
            (status, fields, body) = (parsed.status, parsed.headers, parsed.body)
            lines = response.fieldLines.map { HTTPFieldLinesTests.fields($0.headers) }
        }
    }

    static func fields(_ headers: HTTPHeaders) -> [String] { headers.map { "\($0.name): \($0.value)" } }

    /// The responses of `raw`, read whole, the stream ending after it.
    static func responses(_ raw: String, keepingFieldLines: Bool) -> [HTTPResponse] {
        var parser = HTTPResponseParser(keepingFieldLines: keepingFieldLines)
        var bytes = Array(raw.utf8)
        var responses: [HTTPResponse] = []
        while !bytes.isEmpty, case .complete(let response, let consumed) = parser.parse(bytes, endOfStream: true) {
            responses.append(response)
            bytes.removeFirst(consumed)
        }
        return responses
    }

    @Test(arguments: raws)
    func keptLines_MakeTheParsersFields_AtAnySplit(_ raw: String) {
        let bytes = Array(raw.utf8)
        for (feeding, cuts) in ParserFeed.cutsForEveryFeeding(bytes.count) {
            var making = HTTPResponseParser()
            var keeping = HTTPResponseParser(keepingFieldLines: true)
            let made = ParserFeed.feed(bytes, cuts: cuts, summary: ParsedResponse.init) { making.parse($0, endOfStream: $1) }
            let kept = ParserFeed.feed(bytes, cuts: cuts, summary: Kept.init) { keeping.parse($0, endOfStream: $1) }
            #expect(made.messages.count == kept.messages.count && !made.messages.isEmpty, "\(feeding)")
            for (plain, withLines) in zip(made.messages, kept.messages) {
                #expect(withLines.lines == plain.headers, "\(feeding)")
                // Only the framing fields are made as fields, in their order.
                let framing = plain.headers.filter { field in
                    ["content-length:", "transfer-encoding:", "connection:"].contains { field.lowercased().hasPrefix($0) }
                }
                #expect(withLines.fields == framing, "\(feeding)")
                #expect(withLines.body == plain.body && withLines.status == plain.status, "\(feeding)")
            }
        }
    }

    /// The responses `raw` makes, read without and with its lines kept.
    static func madeAndKept(_ raw: [UInt8]) -> (made: HTTPResponse, kept: HTTPResponse)? {
        var plain = HTTPResponseParser()
        var keeping = HTTPResponseParser(keepingFieldLines: true)
        guard case .complete(let made, _) = plain.parse(raw), case .complete(let kept, _) = keeping.parse(raw) else {
            return nil
        }
        return (made, kept)
    }

    /// A byte above 0x7F anywhere in a value (the head is told eight bytes at a time).
    @Test(arguments: 0..<11)
    func lines_AreNotKept_WhenAValueHoldsOtherBytes(position: Int) throws {
        var value = Array("cafe-latte".utf8)
        value.insert(contentsOf: [0xC3, 0xA9], at: position)
        let raw =
            Array("HTTP/1.1 200 OK\r\nX-Name: ".utf8) + value + Array("\r\nContent-Length: 0\r\n\r\n".utf8)
        let (made, kept) = try #require(Self.madeAndKept(raw))
        #expect(kept.fieldLines == nil)
        #expect(Self.fields(kept.headers) == Self.fields(made.headers))
        #expect(made.headers["X-Name"] == String(decoding: value, as: UTF8.self))
    }

    @Test func lines_AreNotKept_WhenAValueHoldsInvalidUTF8() throws {
        let end = Array("\r\nContent-Length: 0\r\n\r\n".utf8)
        let raw = Array("HTTP/1.1 200 OK\r\nX-Name: caf".utf8) + [0xC3, 0xA9, 0xFF] + end
        let (made, kept) = try #require(Self.madeAndKept(raw))
        #expect(kept.fieldLines == nil)
        #expect(Self.fields(kept.headers) == Self.fields(made.headers))
        #expect(made.headers["X-Name"] == "caf\u{E9}\u{FFFD}")
    }

    @Test func splitting_DropsAndPicksEveryLineOfTheNames_WithoutCase() throws {
        let received = try #require(Self.responses(Self.raws[1], keepingFieldLines: true).first?.fieldLines)
        let (lines, picked) = received.splitting(
            dropping: HTTPFieldNames(["X-Mixed", "date", "Absent"]),
            picking: HTTPFieldNames(["x-MIXED", "X-Absent", "KEEP-ALIVE"]))
        #expect(received.count == 7)
        #expect(lines.count == 3)
        #expect(Self.fields(lines.headers) == ["x-lower: spaced value", "Transfer-Encoding: chunked", "Keep-Alive: timeout=5"])
        // Picked whether dropped or not, in the order received.
        #expect(Self.fields(picked) == ["X-MiXeD: a", "x-mixed: b", "Keep-Alive: timeout=5"])
        let (all, none) = received.splitting(dropping: HTTPFieldNames([]), picking: HTTPFieldNames(["Absent"]))
        #expect(Self.fields(all.headers) == Self.fields(received.headers) && none.count == 0)
    }

    /// A head of the lines kept (plus the handler's own fields) against the head of the same fields.
    @Test(arguments: [HTTPMethod.get, .head])
    func head_OfKeptLines_IsTheHeadOfTheirFields(method: HTTPMethod) {
        let date = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)
        for raw in Self.raws {
            let made = Self.responses(raw, keepingFieldLines: false)
            let kept = Self.responses(raw, keepingFieldLines: true)
            #expect(made.count == kept.count && !made.isEmpty)
            for (plain, withLines) in zip(made, kept) {
                // A relay drops `Content-Length` (the head writes the body's); the head skips
                // the other framing lines, `Server`, and `Date`s but the first.
                let own: HTTPHeaders = ["X-Cache": "BYPASS", "Date": "Thu, 10 Nov 1994 08:49:37 GMT"]
                var relayed = HTTPResponse(status: withLines.status, headers: own, body: withLines.body)
                relayed.fieldLines = withLines.fieldLines?.splitting(
                    dropping: HTTPFieldNames(["Content-Length"]), picking: HTTPFieldNames([])
                ).kept
                var fields = HTTPHeaders(plain.headers.fields + own.fields)
                fields.remove("Content-Length")
                let expected = HTTPResponse(status: plain.status, headers: fields, body: plain.body)
                for keepAlive in [true, false] {
                    let head = HTTPSerializer.head(relayed, requestMethod: method, keepAlive: keepAlive, date: date)
                    #expect(head == HTTPSerializer.head(expected, requestMethod: method, keepAlive: keepAlive, date: date))
                }
            }
        }
    }
}
