/// Writes HTTP/1.1 messages as bytes: response heads for the server (which queues the body
/// behind the head by reference and writes both with one `writev`), chunk framing for streamed
/// bodies, and requests for the client.
///
/// Header order is deterministic: the status line, `Server`, `Date` (the handler's own when it
/// sets one, e.g. a cache replaying the origin's), the handler's other fields in
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
    /// the server queues it after the head.
    /// - Parameters:
    ///   - keepAlive: writes `Connection: keep-alive`, else `Connection: close`.
    ///   - date: the `Date` value unless the response has its own; by default the current second.
    public static func head(
        _ response: HTTPResponse, requestMethod: HTTPMethod, keepAlive: Bool, date: [UInt8] = HTTPDate.current()
    ) -> [UInt8] {
        let bodyCount: Int? = if case .bytes(let bytes) = response.body { bytes.count } else { nil }
        let keepsHandlerLength = requestMethod == .head && bodyCount == 0
        // The wire form of the leading fields, when the headers carry one (it drops every
        // `Content-Length`, so not when a handler's own one is kept).
        let serialized = keepsHandlerLength ? nil : response.headers.serialized
        let fields = response.headers.fields[...]
        let unserialized = fields.dropFirst(serialized?.count ?? 0)
        var out: [UInt8] = []
        out.reserveCapacity(256 + (serialized?.bytes.count ?? 0))
        if response.status == 200 {
            out.append(contentsOf: statusLineOK)
        } else {
            out.append(contentsOf: "HTTP/1.1 \(response.status) \(reasonPhrase(for: response.status))\r\n".utf8)
        }
        out.append(contentsOf: serverLine)
        if let ownDate = serialized?.date ?? unserialized.first(where: { isDate($0.name) })?.value {
            appendField("Date", ownDate, to: &out)
        } else {
            out.append(contentsOf: "Date: ".utf8)
            out.append(contentsOf: date)
            appendLineEnd(to: &out)
        }
        if let serialized { out.append(contentsOf: serialized.bytes) }
        appendFieldLines(unserialized, keepingLength: keepsHandlerLength, to: &out)
        if response.status >= 200, response.status != 204, response.status != 304 {
            if let bodyCount {
                if !(keepsHandlerLength && response.headers.contains("content-length")) {
                    out.append(contentsOf: contentLengthPrefix)
                    appendDecimal(bodyCount, to: &out)
                    appendLineEnd(to: &out)
                }
            } else {
                appendTrustedField("Transfer-Encoding", "chunked", to: &out)
            }
        }
        out.append(contentsOf: keepAlive ? keepAliveEnd : closeEnd)
        return out
    }

    /// `fields` as a head carries them: each `name: value\r\n` in order, without `Server` and
    /// `Date` (written in their own place) and the framing fields (see ``head(_:requestMethod:keepAlive:date:)``).
    static func fieldLines(_ fields: ArraySlice<HTTPField>, keepingLength: Bool) -> [UInt8] {
        var out: [UInt8] = []
        appendFieldLines(fields, keepingLength: keepingLength, to: &out)
        return out
    }

    private static func appendFieldLines(
        _ fields: ArraySlice<HTTPField>, keepingLength: Bool, to out: inout [UInt8]
    ) {
        for field in fields
        where !isFraming(field.name, keepingLength: keepingLength)
            && !HTTPHeaders.equalsIgnoringCase(field.name, "server") && !isDate(field.name)
        {
            appendField(field.name, field.value, to: &out)
        }
    }

    private static func isDate(_ name: String) -> Bool { HTTPHeaders.equalsIgnoringCase(name, "date") }

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
        var out: [UInt8] = []
        out.reserveCapacity(256 + request.body.count)
        out.append(contentsOf: request.method.rawValue.utf8)
        out.append(HTTPByte.space)
        out.append(contentsOf: request.target.utf8)
        out.append(contentsOf: " HTTP/1.1\r\n".utf8)
        if !request.headers.contains("host") {
            let bracketed = host.contains(":") ? "[\(host)]" : host
            appendField("Host", port == 80 ? bracketed : "\(bracketed):\(port)", to: &out)
        }
        for field in request.headers where !isFraming(field.name, keepingLength: false) || isConnection(field.name) {
            appendField(field.name, field.value, to: &out)
        }
        if !request.body.isEmpty || [.post, .put, .patch].contains(request.method) {
            appendTrustedField("Content-Length", String(request.body.count), to: &out)
        }
        out.append(contentsOf: "\r\n".utf8)
        out.append(contentsOf: request.body)
        return out
    }

    /// `Content-Length` (unless kept), `Transfer-Encoding` and `Connection`: the serializer writes these.
    private static func isFraming(_ name: String, keepingLength: Bool) -> Bool {
        (!keepingLength && HTTPHeaders.equalsIgnoringCase(name, "content-length"))
            || HTTPHeaders.equalsIgnoringCase(name, "transfer-encoding") || isConnection(name)
    }

    private static func isConnection(_ name: String) -> Bool { HTTPHeaders.equalsIgnoringCase(name, "connection") }

    /// `name: value\r\n`; a name that is not a token is dropped, control bytes in the value become SP.
    private static func appendField(_ name: String, _ value: String, to out: inout [UInt8]) {
        guard isToken(name) else { return }
        let valueStart = out.count + name.utf8.count + 2
        appendTrustedField(name, value, to: &out)
        // Values nearly always are clean: checked on the string, rewritten in place only when not.
        guard !(value.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(HTTPByte.isFieldValue) } ?? false) else {
            return
        }
        out.withUnsafeMutableBufferPointer { bytes in
            for index in valueStart..<(bytes.count - 2) where !HTTPByte.isFieldValue(bytes[index]) {
                bytes[index] = HTTPByte.space
            }
        }
    }

    /// `true` when `name` is a non-empty token (RFC 9110 §5.6.2), checked over its storage.
    private static func isToken(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { !$0.isEmpty && $0.allSatisfy(HTTPByte.isToken) }
    }

    /// `name: value\r\n` for fields the serializer itself composes.
    private static func appendTrustedField(_ name: String, _ value: String, to out: inout [UInt8]) {
        appendUTF8(name, to: &out)
        out.append(UInt8(ascii: ":"))
        out.append(HTTPByte.space)
        appendUTF8(value, to: &out)
        appendLineEnd(to: &out)
    }

    /// `\r\n`, byte by byte (cheaper than appending a string's bytes).
    private static func appendLineEnd(to out: inout [UInt8]) {
        out.append(HTTPByte.cr)
        out.append(HTTPByte.lf)
    }

    /// The status line of nearly every answer, made once.
    private static let statusLineOK: [UInt8] = Array("HTTP/1.1 200 OK\r\n".utf8)

    /// The fields every head carries, made once: `Server`, the start of `Content-Length`, and
    /// `Connection` with the blank line that ends the head.
    private static let serverLine: [UInt8] = Array("Server: \(serverName)\r\n".utf8)
    private static let contentLengthPrefix: [UInt8] = Array("Content-Length: ".utf8)
    private static let keepAliveEnd: [UInt8] = Array("Connection: keep-alive\r\n\r\n".utf8)
    private static let closeEnd: [UInt8] = Array("Connection: close\r\n\r\n".utf8)

    /// The decimal digits of `value` (0 or more), without making a string.
    private static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for the 19 digits of Int.max
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = max(0, value)
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            let digitBytes = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + start
            out.append(contentsOf: UnsafeBufferPointer(start: digitBytes, count: buffer.count - start))
        }
    }

    /// The bytes of `text`, copied from its storage in one go.
    private static func appendUTF8(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }
}
