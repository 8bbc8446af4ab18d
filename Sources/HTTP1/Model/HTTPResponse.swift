/// An HTTP response: what a handler returns, and what the client receives.
public struct HTTPResponse: Sendable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The header fields. The server adds `Date`, `Server`, `Content-Length` or
    /// `Transfer-Encoding` and `Connection` itself.
    public var headers: HTTPHeaders
    /// The body.
    public var body: HTTPBody
    /// Field lines as received from a peer, written before `headers`' fields (but those the server
    /// writes itself): a relay's answer. A client's response read with its lines kept carries
    /// every line here, and only the framing fields in `headers` (see ``HTTPFieldLines``).
    public var fieldLines: HTTPFieldLines?

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: HTTPBody = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Creates a response with a complete body.
    public init(status: Int, headers: HTTPHeaders = [:], bytes: [UInt8]) {
        self.init(status: status, headers: headers, body: .bytes(bytes))
    }
}
