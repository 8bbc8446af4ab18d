/// Reads a message head (start line, then the header section) incrementally, remembering where
/// it stopped so that no byte is examined twice (picohttpparser's `last_len`).
struct HTTPHeadReader<StartLine: HTTPStartLine>: Sendable {
    /// What a call found.
    enum Outcome {
        case incomplete
        /// The head, which ends just before `end`: its fields, and its lines when keeping them
        /// (then the fields are the framing ones, see ``HTTPFieldSectionReader/Keeping/lines``).
        case complete(StartLine, HTTPHeaders, HTTPFieldLines?, end: Int)
        case invalid(HTTPParseError)
    }

    /// Where the start line (or a leading empty line) begins.
    private var lineStart = 0
    /// Where the search for the start line's LF resumes.
    private var scanned = 0
    private var startLine: StartLine?
    private let keeping: HTTPFieldSectionReader.Keeping
    private var fieldSection: HTTPFieldSectionReader

    /// Whether it keeps the head's lines (``init(keepingLines:)``).
    var keepsLines: Bool { keeping == .lines }

    /// A reader making the head's fields, or keeping its lines (``HTTPFieldLines``) when `keepingLines`.
    @inline(__always)
    init(keepingLines: Bool = false) {
        keeping = keepingLines ? .lines : .fields
        fieldSection = HTTPFieldSectionReader(start: 0, keeping: keeping)
    }

    /// Reads what `buffer` holds beyond the previous call.
    mutating func read(_ buffer: UnsafeRawBufferPointer, limits: HTTPParserLimits) -> Outcome {
        if startLine == nil {
            do throws(HTTPParseError) {
                guard let line = try readStartLine(buffer, limits) else { return .incomplete }
                startLine = line
            } catch {
                return .invalid(error)
            }
        }
        guard let startLine else { return .incomplete }
        switch fieldSection.read(buffer, limits: limits) {
        case .incomplete: return .incomplete
        case .invalid(let error): return .invalid(error)
        case .complete(let end):
            guard keeping == .lines else {
                return .complete(startLine, HTTPHeaders(fieldSection.fields), nil, end: end)
            }
            let head = UnsafeRawBufferPointer(rebasing: buffer[..<end])
            let lines = HTTPFieldLines(bytes: Array(head), lines: fieldSection.lines)
            // Lines are kept only when their bytes are their strings' (see ``HTTPFieldLines``).
            guard HTTPFieldLines.isASCII(head) else { return .complete(startLine, lines.headers, nil, end: end) }
            return .complete(startLine, HTTPHeaders(fieldSection.fields), lines, end: end)
        }
    }

    /// The start line once its CRLF is in; empty lines before it are skipped (RFC 9112 §2.2) and
    /// count towards its length limit.
    private mutating func readStartLine(
        _ buffer: UnsafeRawBufferPointer, _ limits: HTTPParserLimits
    ) throws(HTTPParseError) -> StartLine? {
        while let lf = HTTPLine.nextLineFeed(in: buffer, from: scanned) {
            guard lf - 1 <= limits.maxRequestLineBytes else { throw StartLine.tooLong }
            let line = try HTTPLine.content(of: buffer, from: lineStart, to: lf)
            lineStart = lf + 1
            scanned = lf + 1
            if line.isEmpty { continue }
            fieldSection = HTTPFieldSectionReader(start: lf + 1, keeping: keeping)
            return try StartLine.parse(line)
        }
        scanned = buffer.count
        guard buffer.count <= limits.maxRequestLineBytes + 1 else { throw StartLine.tooLong }
        return nil
    }
}
