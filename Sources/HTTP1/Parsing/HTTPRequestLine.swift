/// `method SP request-target SP HTTP-version` (RFC 9112 §3), one SP each, nothing else.
struct HTTPRequestLine: HTTPStartLine {
    var method: HTTPMethod
    var target: String
    var version: HTTPVersion

    static let tooLong = HTTPParseError(
        status: 414, code: .requestLineTooLong, message: "The request line is longer than the limit.")

    static func parse(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> HTTPRequestLine {
        var methodEnd = 0
        while methodEnd < line.count, HTTPByte.isToken(line[methodEnd]) { methodEnd += 1 }
        guard methodEnd < line.count, line[methodEnd] == HTTPByte.space else {
            let missingSpace = methodEnd == line.count
            throw HTTPLine.unexpectedByte(
                in: line,
                otherwise: missingSpace
                    ? .badRequest(.malformedRequestLine, "The request line is not method, target and version.")
                    : .badRequest(.invalidMethod, "The method is not a token."))
        }
        guard methodEnd > 0 else { throw .badRequest(.invalidMethod, "The method is empty.") }
        let targetStart = methodEnd + 1
        var targetEnd = targetStart
        while targetEnd < line.count, (0x21...0x7E).contains(line[targetEnd]) { targetEnd += 1 }
        guard targetEnd > targetStart else { throw invalidTarget(line) }
        guard targetEnd < line.count else {
            throw HTTPParseError(status: 505, code: .unsupportedVersion, message: "HTTP/0.9 is not supported.")
        }
        guard line[targetEnd] == HTTPByte.space else { throw invalidTarget(line) }
        let version = try HTTPVersion.parse(UnsafeRawBufferPointer(rebasing: line[(targetEnd + 1)...]))
        // Most requests are GETs: their method is not decoded again (~150 instructions).
        let isGet = methodEnd == 3 && line[0] == UInt8(ascii: "G") && line[1] == UInt8(ascii: "E")
            && line[2] == UInt8(ascii: "T")
        return HTTPRequestLine(
            method: isGet ? .get : HTTPMethod(rawValue: HTTPLine.string(line, 0..<methodEnd)),
            target: HTTPLine.string(line, targetStart..<targetEnd), version: version)
    }

    private static func invalidTarget(_ line: UnsafeRawBufferPointer) -> HTTPParseError {
        HTTPLine.unexpectedByte(
            in: line,
            otherwise: .badRequest(.invalidTarget, "The target is empty or holds a byte outside visible ASCII."))
    }
}
