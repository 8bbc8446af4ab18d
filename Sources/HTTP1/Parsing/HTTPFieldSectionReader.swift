/// Reads `*( field-line CRLF ) CRLF` incrementally: the header section after a start line, or
/// the trailer section of a chunked body. Each line is examined once, however the bytes arrive.
struct HTTPFieldSectionReader: Sendable {
    /// What a call found.
    enum Outcome {
        case incomplete
        /// The section ends just before `end`.
        case complete(end: Int)
        case invalid(HTTPParseError)
    }

    /// What a reader keeps of the lines it reads.
    enum Keeping: Sendable {
        /// Nothing: it validates and discards (trailers).
        case nothing
        /// Every field, as a string pair.
        case fields
        /// Every line's place (``HTTPFieldLines``), and as fields only the framing ones
        /// (`Content-Length`, `Transfer-Encoding`, `Connection`), which reading the body needs.
        case lines
    }

    private let sectionStart: Int
    private let keeping: Keeping
    private var lineStart: Int
    /// Where the search for the next LF resumes: bytes before it hold no unread LF.
    private var scanned: Int
    private var fieldCount = 0
    /// The fields read so far (as `keeping` says).
    private(set) var fields: [HTTPField] = []
    /// The places of the lines read so far (when keeping lines).
    private(set) var lines: [HTTPFieldLines.Line] = []

    /// Starts reading at `start`, keeping what `keeping` says.
    init(start: Int, keeping: Keeping) {
        self.sectionStart = start
        self.lineStart = start
        self.scanned = start
        self.keeping = keeping
    }

    /// Reads the complete lines in `buffer` not read before.
    mutating func read(_ buffer: UnsafeRawBufferPointer, limits: HTTPParserLimits) -> Outcome {
        // Read once here: a global's every read checks that it is made (~10 instructions per line).
        let framingNames = HTTPFieldLines.framingNames
        do throws(HTTPParseError) {
            while let lf = HTTPLine.nextLineFeed(in: buffer, from: scanned) {
                try checkSize(upTo: lf + 1, limits)
                let line = try HTTPLine.content(of: buffer, from: lineStart, to: lf)
                let start = lineStart
                lineStart = lf + 1
                scanned = lf + 1
                if line.isEmpty { return .complete(end: lf + 1) }
                fieldCount += 1
                guard fieldCount <= limits.maxHeaderCount else {
                    throw HTTPParseError(
                        status: 431, code: .tooManyHeaders, message: "More than \(limits.maxHeaderCount) fields.")
                }
                let (name, value) = try HTTPFieldLine.parse(line)
                switch keeping {
                case .nothing: break
                case .fields:
                    if fields.isEmpty { fields.reserveCapacity(16) }
                    fields.append(HTTPFieldLine.field(in: line, name: name, value: value))
                case .lines:
                    if lines.isEmpty { lines.reserveCapacity(16) }
                    lines.append(
                        HTTPFieldLines.Line(
                            name: (start + name.lowerBound)..<(start + name.upperBound),
                            value: (start + value.lowerBound)..<(start + value.upperBound)))
                    if framingNames.contains(UnsafeRawBufferPointer(rebasing: line[name])) {
                        if fields.isEmpty { fields.reserveCapacity(4) }
                        fields.append(HTTPFieldLine.field(in: line, name: name, value: value))
                    }
                }
            }
            scanned = buffer.count
            try checkSize(upTo: buffer.count, limits)
            return .incomplete
        } catch {
            return .invalid(error)
        }
    }

    private func checkSize(upTo end: Int, _ limits: HTTPParserLimits) throws(HTTPParseError) {
        guard end - sectionStart <= limits.maxHeaderSectionBytes else {
            throw HTTPParseError(
                status: 431, code: .headerSectionTooLarge,
                message: "The field section is larger than \(limits.maxHeaderSectionBytes) bytes.")
        }
    }
}
