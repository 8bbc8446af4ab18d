#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds CRLF-terminated lines in a buffer (RFC 9112 §2.2: a bare LF is rejected, never taken as an end).
enum HTTPLine {
    /// The index of the first LF at or after `start`, or nil when there is none yet.
    @inline(__always)
    static func nextLineFeed(in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < buffer.count, let base = buffer.baseAddress else { return nil }
        guard let found = memchr(base + start, Int32(HTTPByte.lf), buffer.count - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// The line `[lineStart, lf)` without its CR, or `bare_lf` when the LF has no CR before it.
    @inline(__always)
    static func content(
        of buffer: UnsafeRawBufferPointer, from lineStart: Int, to lf: Int
    ) throws(HTTPParseError) -> UnsafeRawBufferPointer {
        guard lf > lineStart, buffer[lf - 1] == HTTPByte.cr else {
            throw .badRequest(.bareLF, "A line ends in LF without CR.")
        }
        return UnsafeRawBufferPointer(rebasing: buffer[lineStart..<(lf - 1)])
    }

    /// `bare_cr` when `line` holds a CR, else `fallback`: the error for a byte a grammar did not expect.
    static func unexpectedByte(in line: UnsafeRawBufferPointer, otherwise fallback: HTTPParseError) -> HTTPParseError {
        line.contains(HTTPByte.cr) ? .badRequest(.bareCR, "A CR is not followed by LF.") : fallback
    }

    /// The bytes as a string (UTF-8; invalid sequences become U+FFFD).
    @inline(__always)
    static func string(_ line: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: line[range]), as: UTF8.self)
    }
}
