/// Writes HTTP/1.1 messages as bytes: response heads for the server (which queues the body
/// behind the head by reference and writes both with one `writev`), chunk framing for streamed
/// bodies, and requests for the client.
///
/// Header order is deterministic: the status line, `Server`, `Date` (the first relayed line's when
/// the response relays received field lines, else the first of the stored fields'
/// (``HTTPResponse/storedHeaders``), else the handler's own when it sets one, e.g. a cache
/// replaying the origin's), the relayed lines in their order (but their framing, `Connection`,
/// `Server` and `Date` lines), the stored fields in their order, the handler's other fields in
/// their order (except their own `Server`), then the framing field and `Connection`. Field names that are not tokens are
/// dropped and control bytes in values become spaces, so no handler can split a response.
public enum HTTPSerializer {
    /// The `Server` field value.
    public static let serverName = "rds-gateway"

    /// The last chunk ending a chunked body (no trailers).
    public static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// The interim response a server writes when `HTTPRequestParser.takeContinueExpectation()` says so.
    public static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// `false` for answers that never carry a body: to HEAD, and 1xx, 204 and 304 (RFC 9110 §6.4.1).
    public static func allowsBody(status: Int, requestMethod: HTTPMethod) -> Bool {
        requestMethod != .head && status >= 200 && status != 204 && status != 304
    }

    /// A whole response in one buffer: ``head(_:requestMethod:keepAlive:date:)`` followed by the
    /// body it announces (none for a stream, HEAD, 1xx, 204 and 304).
    public static func response(
        _ response: HTTPResponse, requestMethod: HTTPMethod, keepAlive: Bool, date: [UInt8] = HTTPDate.current()
    ) -> [UInt8] {
        var out = head(response, requestMethod: requestMethod, keepAlive: keepAlive, date: date)
        if case .bytes(let body) = response.body, allowsBody(status: response.status, requestMethod: requestMethod) {
            out.append(contentsOf: body)
        }
        return out
    }

    /// A response head: with `Content-Length` for `.bytes`, with `Transfer-Encoding: chunked`
    /// for `.stream` (write each element through `chunk(_:)`, then `lastChunk`). HEAD gets the
    /// body's length but no body; 1xx, 204 and 304 get neither length nor body. A handler's own
    /// `Content-Length` is kept only for an empty answer to HEAD. The body itself is not copied:
    /// the server queues it after the head, unless it is small enough to be copied into the
    /// head's own memory (`followedBy`).
    /// - Parameters:
    ///   - keepAlive: writes `Connection: keep-alive`, else `Connection: close`.
    ///   - date: the `Date` value unless the response has its own; by default the current second.
    ///   - body: bytes written right after the head (a small body the server sends with it).
    public static func head(
        _ response: HTTPResponse, requestMethod: HTTPMethod, keepAlive: Bool, date: [UInt8] = HTTPDate.current(),
        followedBy body: [UInt8] = []
    ) -> [UInt8] {
        let bodyCount: Int? = if case .bytes(let bytes) = response.body { bytes.count } else { nil }
        let keepsHandlerLength = requestMethod == .head && bodyCount == 0
        // A stored answer's fields first, then the handler's own (see ``HTTPResponse/storedHeaders``).
        let stored = response.storedHeaders
        // Relayed lines come first: the first `Date` among them is the head's.
        let relayed = response.fieldLines
        let relayedDate = relayed?.firstLine(where: dateName.contains)
        let statusLine =
            response.status == 200 ? nil : "HTTP/1.1 \(response.status) \(reasonPhrase(for: response.status))\r\n"
        // Sized once for the longest the head can be, then written without growing.
        var bound = (statusLine?.utf8.count ?? statusLineOK.count) + serverLine.count
        bound += (stored.map { self.bound(of: $0, keepingLength: keepsHandlerLength) } ?? 0)
        bound += self.bound(of: response.headers, keepingLength: keepsHandlerLength)
        bound += 8 + date.count + framingBound + keepAliveEnd.count + body.count + (relayed?.writtenBound ?? 0)
        return HTTPHeadBuffer.bytes(bound: bound) { head in
            if let statusLine { head.write(statusLine) } else { head.write(statusLineOK) }
            head.write(serverLine)
            if let relayed, let relayedDate {
                writeDate(of: relayed, at: relayedDate, to: &head)
            } else if !(stored.map { writeDate(of: $0, keepingLength: keepsHandlerLength, to: &head) } ?? false),
                !writeDate(of: response.headers, keepingLength: keepsHandlerLength, to: &head)
            {
                head.write(datePrefix)
                head.write(date)
                head.writeLineEnd()
            }
            if let relayed { writeLines(of: relayed, to: &head) }
            if let stored { writeFields(of: stored, keepingLength: keepsHandlerLength, to: &head) }
            writeFields(of: response.headers, keepingLength: keepsHandlerLength, to: &head)
            if response.status >= 200, response.status != 204, response.status != 304 {
                if let bodyCount {
                    if !(keepsHandlerLength && response.holdsField(named: "content-length")) {
                        writeContentLength(bodyCount, to: &head)
                    }
                } else {
                    head.write(chunkedLine)
                }
            }
            head.write(keepAlive ? keepAliveEnd : closeEnd)
            head.write(body)
        }
    }

    /// The `Date` line of a head carrying `value` (a stored answer's own `Date`, written on every replay).
    static func dateLine(_ value: String) -> [UInt8] {
        HTTPHeadBuffer.bytes(bound: HTTPHeadBuffer.fieldBound("Date", value)) { $0.writeField("Date", value) }
    }

    /// `fields` as a head carries them: each `name: value\r\n` in order, without `Server` and
    /// `Date` (written in their own place) and the framing fields (see ``head(_:requestMethod:keepAlive:date:)``).
    static func fieldLines(_ fields: ArraySlice<HTTPField>, keepingLength: Bool) -> [UInt8] {
        fields.withUnsafeBufferPointer { fields in
            HTTPHeadBuffer.bytes(bound: fieldBounds(fields)) { lines in
                writeFieldLines(fields, keepingLength: keepingLength, to: &lines)
            }
        }
    }

    /// The most bytes `fields` take as field lines.
    static func fieldBounds(_ fields: UnsafeBufferPointer<HTTPField>) -> Int {
        var bound = 0
        for index in fields.indices { bound += HTTPHeadBuffer.fieldBound(fields[index].name, fields[index].value) }
        return bound
    }

    /// Writes the lines of `fields` but those the head writes itself.
    static func writeFieldLines(
        _ fields: UnsafeBufferPointer<HTTPField>, keepingLength: Bool, to head: inout HTTPHeadBuffer
    ) {
        for index in fields.indices where !isWrittenByHead(fields[index].name, keepingLength: keepingLength) {
            head.writeField(fields[index].name, fields[index].value)
        }
    }

    /// `true` for the fields ``head(_:requestMethod:keepAlive:date:followedBy:)`` writes itself:
    /// the framing ones, `Server` and `Date`. Told by the name's length first (4, 6, 10, 14 or
    /// 17 bytes): most names have another and are then compared with none of the five.
    static func isWrittenByHead(_ name: String, keepingLength: Bool) -> Bool {
        let lengths: UInt64 = 1 << 4 | 1 << 6 | 1 << 10 | 1 << 14 | 1 << 17
        let length = name.utf8.count
        // A masking shift: the smart `<<` with an `Int` amount is generic code, slower than the comparisons.
        guard length < 64, lengths & (1 &<< UInt64(length)) != 0 else { return false }
        return isFraming(name, keepingLength: keepingLength) || HTTPHeaders.equalsIgnoringCase(name, "server")
            || isDate(name)
    }

    static func isDate(_ name: String) -> Bool { HTTPHeaders.equalsIgnoringCase(name, "date") }

    /// The relayed lines the head writes itself (their framing ones are never written from them).
    private static let writtenByHead = HTTPFieldNames(
        ["Content-Length", "Transfer-Encoding", "Connection", "Server", "Date"])

    /// `Date`, the field whose first relayed line is written in the head's own place.
    private static let dateName = HTTPFieldNames(["Date"])

    /// Writes the relayed line at `index` (a `Date`) as the head's `Date` field.
    private static func writeDate(of lines: HTTPFieldLines, at index: Int, to head: inout HTTPHeadBuffer) {
        lines.withLine(at: index) { _, value in
            head.write(datePrefix)
            head.write(value.assumingMemoryBound(to: UInt8.self))
            head.writeLineEnd()
        }
    }

    /// Writes the relayed lines, but those the head writes itself.
    private static func writeLines(of lines: HTTPFieldLines, to head: inout HTTPHeadBuffer) {
        lines.forEachLine { name, value in
            if !writtenByHead.contains(name) { head.writeValidatedField(name, value) }
        }
    }

    /// One chunk of a chunked body in one buffer; empty input gives no bytes (an empty chunk
    /// would end the body).
    public static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        return chunkSize(bytes.count) + bytes + crlf
    }

    /// The size line that opens a chunk of `count` bytes (the chunk's data follows, then `crlf`).
    public static func chunkSize(_ count: Int) -> [UInt8] {
        Array((String(count, radix: 16) + "\r\n").utf8)
    }

    /// The line end that closes a chunk's data.
    public static let crlf: [UInt8] = [HTTPByte.cr, HTTPByte.lf]

    /// A request for the client: request line, `Host` (unless the request has one), the request's
    /// fields, `Content-Length` when there is a body or the method usually carries one, then the body.
    /// The request's own `Content-Length` and `Transfer-Encoding` are replaced.
    public static func request(_ request: HTTPRequest, host: String, port: Int) -> [UInt8] {
        let hostValue: String? =
            if request.headers.contains("host") {
                nil
            } else {
                port == 80 ? bracketed(host) : "\(bracketed(host)):\(port)"
            }
        let method = request.method
        let hasLength = !request.body.isEmpty || method == .post || method == .put || method == .patch
        // The space, the request line's end and the blank line: 1 + 11 + 2 bytes.
        var bound = request.method.rawValue.utf8.count + request.target.utf8.count + 14 + framingBound
        bound += (hostValue.map { HTTPHeadBuffer.fieldBound("Host", $0) } ?? 0) + request.body.count
        bound += request.headers.fields.withUnsafeBufferPointer(fieldBounds)
        return HTTPHeadBuffer.bytes(bound: bound) { out in
            out.write(request.method.rawValue)
            out.write(HTTPByte.space)
            out.write(request.target)
            out.write(requestLineEnd)
            if let hostValue { out.writeField("Host", hostValue) }
            // Read in place: iterating the headers would copy each field, retaining its two strings.
            request.headers.fields.withUnsafeBufferPointer { fields in
                for index in fields.indices
                where !isFraming(fields[index].name, keepingLength: false) || isConnection(fields[index].name) {
                    out.writeField(fields[index].name, fields[index].value)
                }
            }
            if hasLength { writeContentLength(request.body.count, to: &out) }
            out.writeLineEnd()
            out.write(request.body)
        }
    }

    /// An IPv6 literal in brackets, as the `Host` field and the client's pool keys carry it;
    /// other hosts as they are (the colon found over bytes: a `Character` search costs more).
    static func bracketed(_ host: String) -> String {
        host.firstIndex(ofASCII: UInt8(ascii: ":")) != nil ? "[\(host)]" : host
    }

    /// `Content-Length` (unless kept), `Transfer-Encoding` and `Connection`: the serializer writes these.
    private static func isFraming(_ name: String, keepingLength: Bool) -> Bool {
        (!keepingLength && HTTPHeaders.equalsIgnoringCase(name, "content-length"))
            || HTTPHeaders.equalsIgnoringCase(name, "transfer-encoding") || isConnection(name)
    }

    private static func isConnection(_ name: String) -> Bool { HTTPHeaders.equalsIgnoringCase(name, "connection") }

    /// `Content-Length: <count>\r\n`, its digits written without making a string.
    private static func writeContentLength(_ count: Int, to head: inout HTTPHeadBuffer) {
        head.write(contentLengthPrefix)
        head.writeDecimal(count)
        head.writeLineEnd()
    }

    /// The status line of nearly every answer, made once.
    private static let statusLineOK: [UInt8] = Array("HTTP/1.1 200 OK\r\n".utf8)

    /// The pieces every head carries, made once: `Server`, the starts of `Date` and
    /// `Content-Length`, the chunked framing line, `Connection` with the blank line that ends the
    /// head, and the end of a request line.
    private static let serverLine: [UInt8] = Array("Server: \(serverName)\r\n".utf8)
    private static let datePrefix: [UInt8] = Array("Date: ".utf8)
    private static let contentLengthPrefix: [UInt8] = Array("Content-Length: ".utf8)
    private static let chunkedLine: [UInt8] = Array("Transfer-Encoding: chunked\r\n".utf8)
    private static let keepAliveEnd: [UInt8] = Array("Connection: keep-alive\r\n\r\n".utf8)
    private static let closeEnd: [UInt8] = Array("Connection: close\r\n\r\n".utf8)
    private static let requestLineEnd: [UInt8] = Array(" HTTP/1.1\r\n".utf8)

    /// The most bytes the framing field takes: `Content-Length` with 19 digits, or
    /// `Transfer-Encoding: chunked`.
    private static let framingBound = 16 + 19 + 2
}
