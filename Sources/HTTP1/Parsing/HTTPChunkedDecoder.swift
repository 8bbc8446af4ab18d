/// Decodes a chunked body (RFC 9112 §7.1) incrementally into `body`. Chunk extensions are
/// checked for stray bytes and ignored; trailer fields are validated like header fields and dropped.
struct HTTPChunkedDecoder: Sendable {
    /// What a call found.
    enum Outcome {
        case incomplete
        /// The body (and its trailers) end just before `end`.
        case complete(end: Int)
        case invalid(HTTPParseError)
    }

    private enum State {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers(HTTPFieldSectionReader)
    }

    /// The longest chunk-size line (extensions included) accepted.
    static let maxSizeLineBytes = 4096

    private var state = State.size
    /// The next byte to decode.
    private var position: Int
    /// Where the search for a size line's LF resumes.
    private var scanned: Int
    /// The body decoded so far.
    private(set) var body: [UInt8] = []

    /// Starts decoding at `start`, where the head ended.
    init(start: Int) {
        self.position = start
        self.scanned = start
    }

    /// Decodes what `buffer` holds beyond the previous call.
    mutating func read(_ buffer: UnsafeRawBufferPointer, limits: HTTPParserLimits) -> Outcome {
        do throws(HTTPParseError) {
            while true {
                switch state {
                case .size:
                    guard let size = try readSizeLine(buffer) else { return .incomplete }
                    if size == 0 {
                        state = .trailers(HTTPFieldSectionReader(start: position, keeping: .nothing))
                    } else {
                        guard size <= limits.maxBodyBytes - body.count else {
                            throw HTTPParseError(
                                status: 413, code: .bodyTooLarge,
                                message: "The body is larger than \(limits.maxBodyBytes) bytes.")
                        }
                        state = .data(remaining: size)
                    }
                case .data(let remaining):
                    let available = min(remaining, buffer.count - position)
                    let chunk = UnsafeRawBufferPointer(rebasing: buffer[position..<(position + available)])
                    body.append(contentsOf: chunk.assumingMemoryBound(to: UInt8.self))
                    position += available
                    guard available == remaining else {
                        state = .data(remaining: remaining - available)
                        return .incomplete
                    }
                    state = .dataEnd
                case .dataEnd:
                    let pending = buffer.count - position
                    if pending > 0, buffer[position] != HTTPByte.cr { throw Self.missingCRLF }
                    if pending > 1, buffer[position + 1] != HTTPByte.lf { throw Self.missingCRLF }
                    guard pending >= 2 else { return .incomplete }
                    position += 2
                    scanned = position
                    state = .size
                case .trailers(var reader):
                    let outcome = reader.read(buffer, limits: limits)
                    state = .trailers(reader)
                    switch outcome {
                    case .incomplete: return .incomplete
                    case .invalid(let error): throw error
                    case .complete(let end): return .complete(end: end)
                    }
                }
            }
        } catch {
            return .invalid(error)
        }
    }

    private static let missingCRLF = HTTPParseError.badRequest(.invalidChunk, "Chunk data is not followed by CRLF.")

    /// The next chunk size once its line is in.
    private mutating func readSizeLine(_ buffer: UnsafeRawBufferPointer) throws(HTTPParseError) -> Int? {
        guard let lf = HTTPLine.nextLineFeed(in: buffer, from: scanned) else {
            scanned = buffer.count
            guard buffer.count - position <= Self.maxSizeLineBytes + 1 else { throw Self.sizeLineTooLong }
            return nil
        }
        guard lf - 1 - position <= Self.maxSizeLineBytes else { throw Self.sizeLineTooLong }
        let line = try HTTPLine.content(of: buffer, from: position, to: lf)
        position = lf + 1
        scanned = position
        return try Self.chunkSize(line)
    }

    private static let sizeLineTooLong = HTTPParseError.badRequest(
        .invalidChunkSize, "A chunk-size line is longer than \(maxSizeLineBytes) bytes.")

    /// `1*HEXDIG [ BWS ";" chunk-ext ]`: the size, its extensions ignored but checked for control bytes.
    static func chunkSize(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> Int {
        var size = 0
        var index = 0
        while index < line.count, let digit = HTTPByte.hexDigit(line[index]) {
            guard size <= (Int.max - digit) / 16 else {
                throw .badRequest(.invalidChunkSize, "A chunk size overflows.")
            }
            size = size * 16 + digit
            index += 1
        }
        var rest = index
        while rest < line.count, HTTPByte.isWhitespace(line[rest]) { rest += 1 }
        let extensionOK =
            rest == line.count
            ? rest == index
            : line[rest] == HTTPByte.semicolon && line[rest...].allSatisfy(HTTPByte.isFieldValue)
        guard index > 0, extensionOK else {
            throw HTTPLine.unexpectedByte(
                in: line, otherwise: .badRequest(.invalidChunkSize, "A chunk size is empty or not hexadecimal."))
        }
        return size
    }
}
