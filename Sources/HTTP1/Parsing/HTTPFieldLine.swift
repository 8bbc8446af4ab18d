/// One `field-name ":" OWS field-value OWS` line (RFC 9112 §5), validated strictly.
enum HTTPFieldLine {
    /// Validates `line` (CRLF excluded) and returns where its name and its trimmed value are.
    ///
    /// Rejects: a leading SP/HTAB (obs-fold), an empty or non-token name, whitespace before the
    /// colon, and any control byte (NUL, bare CR, DEL, …) in the value.
    static func parse(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> (name: Range<Int>, value: Range<Int>) {
        guard let first = line.first else { throw .badRequest(.invalidFieldName, "A field line is empty.") }
        if HTTPByte.isWhitespace(first) {
            throw .badRequest(.obsoleteLineFolding, "A field line starts with whitespace (obsolete line folding).")
        }
        var colon = 0
        while colon < line.count, HTTPByte.isToken(line[colon]) { colon += 1 }
        guard colon > 0, colon < line.count, line[colon] == HTTPByte.colon else {
            throw nameError(line, at: colon)
        }
        var valueStart = colon + 1
        while valueStart < line.count, HTTPByte.isWhitespace(line[valueStart]) { valueStart += 1 }
        // Values nearly always are clean, which is told eight bytes at a time; the others are
        // checked byte by byte.
        if HTTPByte.mayHoldControlByte(UnsafeRawBufferPointer(rebasing: line[valueStart...])) {
            for index in valueStart..<line.count where !HTTPByte.isFieldValue(line[index]) {
                throw HTTPLine.unexpectedByte(
                    in: line, otherwise: .badRequest(.invalidFieldValue, "A field value holds a control byte."))
            }
        }
        var valueEnd = line.count
        while valueEnd > valueStart, HTTPByte.isWhitespace(line[valueEnd - 1]) { valueEnd -= 1 }
        return (0..<colon, valueStart..<valueEnd)
    }

    /// The field of a line of `bytes` whose name and value lie at `name` and `value`: a known
    /// name's literal (``HTTPKnownFieldNames``) or the name decoded, and the value decoded.
    @inline(__always)
    static func field(in bytes: UnsafeRawBufferPointer, name: Range<Int>, value: Range<Int>) -> HTTPField {
        let known = HTTPKnownFieldNames.name(UnsafeRawBufferPointer(rebasing: bytes[name]))
        return HTTPField(name: known ?? HTTPLine.string(bytes, name), value: HTTPLine.string(bytes, value))
    }

    private static func nameError(_ line: UnsafeRawBufferPointer, at index: Int) -> HTTPParseError {
        var next = index
        while next < line.count, HTTPByte.isWhitespace(line[next]) { next += 1 }
        if index > 0, next > index, next < line.count, line[next] == HTTPByte.colon {
            return .badRequest(.whitespaceBeforeColon, "Whitespace between a field name and its colon.")
        }
        return HTTPLine.unexpectedByte(
            in: line, otherwise: .badRequest(.invalidFieldName, "A field name is empty or not a token."))
    }
}
