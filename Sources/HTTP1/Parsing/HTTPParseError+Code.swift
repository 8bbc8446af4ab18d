extension HTTPParseError {
    /// A stable, machine-readable reason such as `content_length_conflict`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code in snake case.
        public let rawValue: String

        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code.
        public var description: String { rawValue }

        /// The request line (or status line) is longer than the limit (414).
        public static let requestLineTooLong = Code(rawValue: "request_line_too_long")
        /// The header or trailer section is larger than the limit (431).
        public static let headerSectionTooLarge = Code(rawValue: "header_section_too_large")
        /// More header or trailer fields than the limit (431).
        public static let tooManyHeaders = Code(rawValue: "too_many_headers")
        /// The body is larger than the limit (413).
        public static let bodyTooLarge = Code(rawValue: "body_too_large")
        /// A transfer coding other than `chunked` (501).
        public static let unsupportedTransferCoding = Code(rawValue: "unsupported_transfer_coding")
        /// A version other than HTTP/1.x (505).
        public static let unsupportedVersion = Code(rawValue: "unsupported_version")
        /// The request line is not `method SP target SP version` (400).
        public static let malformedRequestLine = Code(rawValue: "malformed_request_line")
        /// The status line is not `version SP 3DIGIT SP reason` (400).
        public static let malformedStatusLine = Code(rawValue: "malformed_status_line")
        /// The method is not a token (400).
        public static let invalidMethod = Code(rawValue: "invalid_method")
        /// The target is empty or holds a byte outside visible ASCII (400).
        public static let invalidTarget = Code(rawValue: "invalid_target")
        /// The version is not `HTTP/DIGIT.DIGIT` (400).
        public static let invalidVersion = Code(rawValue: "invalid_version")
        /// A field name is empty or holds a non-token byte (400).
        public static let invalidFieldName = Code(rawValue: "invalid_field_name")
        /// Whitespace between a field name and its colon (400, RFC 9112 §5.1).
        public static let whitespaceBeforeColon = Code(rawValue: "whitespace_before_colon")
        /// A field value holds NUL or another control byte (400).
        public static let invalidFieldValue = Code(rawValue: "invalid_field_value")
        /// A field line starts with whitespace: obsolete line folding (400, RFC 9112 §5.2).
        public static let obsoleteLineFolding = Code(rawValue: "obsolete_line_folding")
        /// A CR not followed by LF (400, RFC 9112 §2.2).
        public static let bareCR = Code(rawValue: "bare_cr")
        /// An LF not preceded by CR (400).
        public static let bareLF = Code(rawValue: "bare_lf")
        /// A `Content-Length` that is not a decimal number (400).
        public static let invalidContentLength = Code(rawValue: "invalid_content_length")
        /// Several `Content-Length` values that differ (400).
        public static let contentLengthConflict = Code(rawValue: "content_length_conflict")
        /// `Content-Length` together with `Transfer-Encoding` (400).
        public static let contentLengthWithTransferEncoding = Code(rawValue: "content_length_with_transfer_encoding")
        /// `Transfer-Encoding` that is empty, repeats `chunked`, or comes in an HTTP/1.0 message (400).
        public static let invalidTransferEncoding = Code(rawValue: "invalid_transfer_encoding")
        /// A chunk size that is empty, not hexadecimal, overflows, or has a malformed extension (400).
        public static let invalidChunkSize = Code(rawValue: "invalid_chunk_size")
        /// Chunk data not followed by CRLF (400).
        public static let invalidChunk = Code(rawValue: "invalid_chunk")
        /// An HTTP/1.1 request without exactly one `Host` field (400, RFC 9112 §3.2).
        public static let invalidHost = Code(rawValue: "invalid_host")
        /// Bytes after a complete response that nothing asked for: a wrong `Content-Length`, a body
        /// on a bodiless answer, or an extra response (the client's verdict; 400).
        public static let bytesAfterMessage = Code(rawValue: "bytes_after_message")
    }
}
