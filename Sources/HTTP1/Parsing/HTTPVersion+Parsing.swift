extension HTTPVersion {
    /// Parses exactly `HTTP/DIGIT.DIGIT` (RFC 9112 §2.3); HTTP/1.x passes, other majors give 505.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(HTTPParseError) -> HTTPVersion {
        guard bytes.count == 8, bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"),
            bytes[2] == UInt8(ascii: "T"), bytes[3] == UInt8(ascii: "P"), bytes[4] == UInt8(ascii: "/"),
            bytes[6] == UInt8(ascii: "."),
            let major = HTTPByte.digit(bytes[5]), let minor = HTTPByte.digit(bytes[7])
        else {
            throw HTTPLine.unexpectedByte(
                in: bytes, otherwise: .badRequest(.invalidVersion, "The version is not HTTP/DIGIT.DIGIT."))
        }
        guard major == 1 else {
            throw HTTPParseError(
                status: 505, code: .unsupportedVersion, message: "Only HTTP/1.0 and HTTP/1.1 are supported.")
        }
        return HTTPVersion(major: major, minor: minor)
    }
}
