import HTTP1
import Testing

/// One row of the parser table: raw bytes and what a server must make of them.
struct RequestCase: Sendable, CustomTestStringConvertible {
    var name: String
    var raw: String
    /// The requests expected, in order, when `error` is nil.
    var requests: [ParsedRequest] = []
    /// `status code` of the expected error.
    var error: String?
    var limits = HTTPParserLimits()

    var testDescription: String { name }

    static func valid(_ name: String, _ raw: String, _ requests: ParsedRequest...) -> RequestCase {
        RequestCase(name: name, raw: raw, requests: requests)
    }

    static func invalid(_ name: String, _ raw: String, _ error: String, limits: HTTPParserLimits = .init())
        -> RequestCase
    {
        RequestCase(name: name, raw: raw, error: error, limits: limits)
    }
}
