/// The field lines of a received message head as they arrived: the head's bytes and where each
/// line's name and (trimmed) value lie in them, without a string per field.
///
/// A client call that keeps them (``HTTPClient/send(_:to:timeouts:keepingFieldLines:on:completion:)``)
/// gets them as ``HTTPResponse/fieldLines``; a relay drops the lines it must not pass on
/// (``splitting(dropping:picking:)``) and answers with them: the server writes each kept line as
/// `name: value` from these bytes, as it writes a field (``HTTPSerializer``): the parser made
/// them, so every name is a token and no value holds a control byte. Kept only for a head of
/// ASCII bytes, whose values as strings are exactly these bytes (other bytes would be decoded
/// with invalid UTF-8 repaired).
///
/// A class: a response carries one reference, where two arrays were copied and destroyed with
/// every response (a server's answers carry none).
public final class HTTPFieldLines: Sendable {
    /// Where one line's name and value lie in ``bytes``.
    struct Line: Sendable {
        let name: Range<Int>
        let value: Range<Int>
    }

    /// The head, from its first byte to the end of its field section.
    let bytes: [UInt8]
    /// The lines kept, in the order received.
    let lines: [Line]

    init(bytes: [UInt8], lines: [Line]) {
        self.bytes = bytes
        self.lines = lines
    }

    /// The number of lines kept.
    public var count: Int { lines.count }

    /// Every kept line as a field, exactly as a parser not keeping lines makes it.
    public var headers: HTTPHeaders {
        bytes.withUnsafeBytes { head in
            HTTPHeaders(lines.map { HTTPFieldLine.field(in: head, name: $0.name, value: $0.value) })
        }
    }

    /// In one pass, these lines but those named (without case) one of `dropped`, and as fields
    /// the lines named one of `picked`, dropped or not, in order: what a relay passes on and what
    /// it reads to decide (two passes, one per set, cost ~500 instructions more for ten lines).
    public func splitting(dropping dropped: HTTPFieldNames, picking picked: HTTPFieldNames) -> (
        kept: HTTPFieldLines, picked: HTTPHeaders
    ) {
        // Room made once (`filter` grows its result line by line).
        var kept: [Line] = []
        kept.reserveCapacity(lines.count)
        var fields: [HTTPField] = []
        bytes.withUnsafeBytes { head in
            for line in lines {
                let name = UnsafeRawBufferPointer(rebasing: head[line.name])
                if picked.contains(name) {
                    fields.append(HTTPFieldLine.field(in: head, name: line.name, value: line.value))
                }
                if !dropped.contains(name) { kept.append(line) }
            }
        }
        return (HTTPFieldLines(bytes: bytes, lines: kept), HTTPHeaders(fields))
    }

    /// The most bytes the kept lines take written as `name: value\r\n` (each received line has
    /// its `:` and at least its LF besides its name and value).
    var writtenBound: Int { bytes.count + 2 * lines.count }

    /// The position of the first kept line whose name `isMatch` accepts.
    func firstLine(where isMatch: (UnsafeRawBufferPointer) -> Bool) -> Int? {
        bytes.withUnsafeBytes { head in lines.firstIndex { isMatch(UnsafeRawBufferPointer(rebasing: head[$0.name])) } }
    }

    /// `body` of the name and value of the kept line at `index`.
    func withLine<Result>(
        at index: Int, _ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Result
    ) -> Result {
        bytes.withUnsafeBytes { head in
            body(
                UnsafeRawBufferPointer(rebasing: head[lines[index].name]),
                UnsafeRawBufferPointer(rebasing: head[lines[index].value]))
        }
    }

    /// Calls `body` with each kept line's name and value, in order.
    func forEachLine(_ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Void) {
        bytes.withUnsafeBytes { head in
            for line in lines {
                body(
                    UnsafeRawBufferPointer(rebasing: head[line.name]), UnsafeRawBufferPointer(rebasing: head[line.value]))
            }
        }
    }

    /// The fields reading a body needs, made as fields beside the lines.
    static let framingNames = HTTPFieldNames(["Content-Length", "Transfer-Encoding", "Connection"])

    /// `true` when no byte of `bytes` is above 0x7F: the bytes ORed together eight at a time,
    /// their high bits tested once at the end (a test per word cost ~90 instructions more per head).
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var ored: UInt64 = 0
        var index = 0
        while index + 8 <= bytes.count {
            ored |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < bytes.count {
            ored |= UInt64(bytes[index])
            index += 1
        }
        return ored & 0x8080_8080_8080_8080 == 0
    }
}
