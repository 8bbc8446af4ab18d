/// `HTTP-version SP status-code SP [ reason-phrase ]` (RFC 9112 §4); a missing `SP reason` is tolerated.
struct HTTPStatusLine: HTTPStartLine {
    var version: HTTPVersion
    var status: Int

    static let tooLong = HTTPParseError(
        status: 400, code: .requestLineTooLong, message: "The status line is longer than the limit.")

    static func parse(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> HTTPStatusLine {
        guard line.count >= 12, line[8] == HTTPByte.space, line.count == 12 || line[12] == HTTPByte.space,
            let hundreds = HTTPByte.digit(line[9]), hundreds >= 1,
            let tens = HTTPByte.digit(line[10]), let ones = HTTPByte.digit(line[11])
        else {
            throw HTTPLine.unexpectedByte(
                in: line, otherwise: .badRequest(.malformedStatusLine, "The status line is not version, code, reason."))
        }
        let version = try HTTPVersion.parse(UnsafeRawBufferPointer(rebasing: line[0..<8]))
        if line.count > 13, !line[13...].allSatisfy(HTTPByte.isFieldValue) {
            throw HTTPLine.unexpectedByte(
                in: line, otherwise: .badRequest(.malformedStatusLine, "The reason phrase holds a control byte."))
        }
        return HTTPStatusLine(version: version, status: hundreds * 100 + tens * 10 + ones)
    }
}
