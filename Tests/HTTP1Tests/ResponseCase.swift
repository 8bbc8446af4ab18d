import HTTP1
import Testing

/// One row of the response table.
struct ResponseCase: Sendable, CustomTestStringConvertible {
    var name: String
    var raw: String
    var requestMethod: HTTPMethod = .get
    var responses: [ParsedResponse] = []
    var error: String?
    /// Bytes left when the stream ends (a truncated response).
    var leftover = 0

    var testDescription: String { name }
}
