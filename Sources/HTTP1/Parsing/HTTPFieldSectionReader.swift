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

    private let sectionStart: Int
    private let keepsFields: Bool
    private var lineStart: Int
    /// Where the search for the next LF resumes: bytes before it hold no unread LF.
    private var scanned: Int
    private var fieldCount = 0
    /// The fields read so far (only when keeping them).
    private(set) var fields: [HTTPField] = []

    /// Starts reading at `start`; `keepsFields: false` validates and discards (trailers).
    init(start: Int, keepsFields: Bool) {
        self.sectionStart = start
        self.lineStart = start
        self.scanned = start
        self.keepsFields = keepsFields
    }

    /// Reads the complete lines in `buffer` not read before.
    mutating func read(_ buffer: UnsafeRawBufferPointer, limits: HTTPParserLimits) -> Outcome {
        do throws(HTTPParseError) {
            while let lf = HTTPLine.nextLineFeed(in: buffer, from: scanned) {
                try checkSize(upTo: lf + 1, limits)
                let line = try HTTPLine.content(of: buffer, from: lineStart, to: lf)
                lineStart = lf + 1
                scanned = lf + 1
                if line.isEmpty { return .complete(end: lf + 1) }
                fieldCount += 1
                guard fieldCount <= limits.maxHeaderCount else {
                    throw HTTPParseError(
                        status: 431, code: .tooManyHeaders, message: "More than \(limits.maxHeaderCount) fields.")
                }
                let (name, value) = try HTTPFieldLine.parse(line)
                if keepsFields {
                    if fields.isEmpty { fields.reserveCapacity(16) }
                    let nameBytes = UnsafeRawBufferPointer(rebasing: line[name])
                    fields.append(
                        HTTPField(
                            name: HTTPKnownFieldNames.name(nameBytes) ?? HTTPLine.string(line, name),
                            value: HTTPLine.string(line, value)))
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
