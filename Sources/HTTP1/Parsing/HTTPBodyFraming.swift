/// How a message's body is delimited (RFC 9112 §6.3).
enum HTTPBodyFraming: Sendable, Equatable {
    /// Exactly this many bytes follow the head.
    case length(Int)
    /// Chunked transfer coding, trailers after the last chunk.
    case chunked
    /// Everything until the peer closes the connection (responses only).
    case untilClose

    /// A request's framing: chunked, `Content-Length`, or no body.
    static func request(_ headers: HTTPHeaders, version: HTTPVersion, limits: HTTPParserLimits) throws(HTTPParseError)
        -> HTTPBodyFraming
    {
        try declared(headers, version: version, limits: limits) ?? .length(0)
    }

    /// A response's framing: none for HEAD, 1xx, 204 and 304; then chunked, `Content-Length`, or until close.
    static func response(
        status: Int, to requestMethod: HTTPMethod, _ headers: HTTPHeaders, version: HTTPVersion,
        limits: HTTPParserLimits
    ) throws(HTTPParseError) -> HTTPBodyFraming {
        if requestMethod == .head || status < 200 || status == 204 || status == 304 { return .length(0) }
        return try declared(headers, version: version, limits: limits) ?? .untilClose
    }

    /// The framing the fields declare, nil when they declare none. Smuggling defences: both
    /// `Content-Length` and `Transfer-Encoding`, differing lengths, any coding but a single
    /// `chunked`, and `Transfer-Encoding` in HTTP/1.0 are all rejected.
    private static func declared(
        _ headers: HTTPHeaders, version: HTTPVersion, limits: HTTPParserLimits
    ) throws(HTTPParseError) -> HTTPBodyFraming? {
        // Most messages have one `Content-Length` or none, and no `Transfer-Encoding`: told in one
        // pass over the fields in place (no copy of each field, no list of values), each name
        // compared with its usual spelling first.
        let (firstLength, lengthCount, hasCodings) = headers.fields.withUnsafeBufferPointer { fields in
            var firstLength: Int?
            var lengthCount = 0
            var hasCodings = false
            for index in fields.indices {
                if HTTPHeaders.equalsIgnoringCase(fields[index].name, usually: "Content-Length") {
                    if firstLength == nil { firstLength = index }
                    lengthCount += 1
                } else if HTTPHeaders.equalsIgnoringCase(fields[index].name, usually: "Transfer-Encoding") {
                    hasCodings = true
                }
            }
            return (firstLength, lengthCount, hasCodings)
        }
        if !hasCodings, lengthCount <= 1 {
            guard let firstLength else { return nil }
            // The usual single value of digits alone, read over its bytes (without a list of the
            // values); anything else (a list, whitespace, a length over the limit) is judged below.
            let value = headers.fields[firstLength].value
            if let length = digitsOnly(value), length <= limits.maxBodyBytes { return .length(length) }
            return .length(try contentLength([value], limits: limits))
        }
        let contentLengths = headers.values(for: "Content-Length")
        let transferEncodings = headers.values(for: "Transfer-Encoding")
        if !transferEncodings.isEmpty {
            guard contentLengths.isEmpty else {
                throw .badRequest(.contentLengthWithTransferEncoding, "Both Content-Length and Transfer-Encoding.")
            }
            guard version.minor >= 1 else {
                throw .badRequest(.invalidTransferEncoding, "Transfer-Encoding in an HTTP/1.0 message.")
            }
            try checkChunkedOnly(transferEncodings)
            return .chunked
        }
        guard !contentLengths.isEmpty else { return nil }
        return .length(try contentLength(contentLengths, limits: limits))
    }

    /// Accepts exactly one `chunked` coding (in any number of fields); anything else is 501 or 400.
    private static func checkChunkedOnly(_ values: [String]) throws(HTTPParseError) {
        var chunkedCount = 0
        for value in values {
            for element in value.utf8.split(separator: HTTPByte.comma, omittingEmptySubsequences: false) {
                let coding = trimmed(element)
                if coding.isEmpty { continue }
                guard coding.elementsEqual("chunked".utf8, by: { HTTPByte.lowercased($0) == $1 }) else {
                    throw HTTPParseError(
                        status: 501, code: .unsupportedTransferCoding,
                        message: "Only the chunked transfer coding is supported.")
                }
                chunkedCount += 1
            }
        }
        guard chunkedCount == 1 else {
            throw .badRequest(.invalidTransferEncoding, "Transfer-Encoding must name chunked exactly once.")
        }
    }

    /// The one length all `Content-Length` values (fields and list elements) agree on.
    private static func contentLength(_ values: [String], limits: HTTPParserLimits) throws(HTTPParseError) -> Int {
        if values.count == 1, !values[0].utf8.contains(HTTPByte.comma) {
            return try decimal(trimmed(values[0][...].utf8), limits: limits)
        }
        var agreed: Int?
        for value in values {
            for element in value.utf8.split(separator: HTTPByte.comma, omittingEmptySubsequences: false) {
                let length = try decimal(trimmed(element), limits: limits)
                if let agreed, agreed != length {
                    throw .badRequest(.contentLengthConflict, "Content-Length values differ.")
                }
                agreed = length
            }
        }
        return agreed ?? 0
    }

    /// The number `value` spells when it is 1 to 18 digits and nothing else (no overflow possible), else `nil`.
    private static func digitsOnly(_ value: String) -> Int? {
        let parsed = value.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
            var number = 0
            for byte in bytes {
                guard let digit = HTTPByte.digit(byte) else { return nil }
                number = number &* 10 &+ digit
            }
            return number
        }
        return parsed ?? nil
    }

    private static func decimal(_ digits: Substring.UTF8View, limits: HTTPParserLimits) throws(HTTPParseError) -> Int {
        guard !digits.isEmpty else { throw .badRequest(.invalidContentLength, "Content-Length is empty.") }
        var length = 0
        for byte in digits {
            guard let digit = HTTPByte.digit(byte) else {
                throw .badRequest(.invalidContentLength, "Content-Length is not a decimal number.")
            }
            let (product, overflowed) = length.multipliedReportingOverflow(by: 10)
            length = product &+ digit
            guard !overflowed, length >= 0, length <= limits.maxBodyBytes else {
                throw HTTPParseError(
                    status: 413, code: .bodyTooLarge, message: "The body is larger than \(limits.maxBodyBytes) bytes.")
            }
        }
        return length
    }

    private static func trimmed(_ element: Substring.UTF8View) -> Substring.UTF8View {
        var element = element
        while let first = element.first, HTTPByte.isWhitespace(first) { element.removeFirst() }
        while let last = element.last, HTTPByte.isWhitespace(last) { element.removeLast() }
        return element
    }
}
