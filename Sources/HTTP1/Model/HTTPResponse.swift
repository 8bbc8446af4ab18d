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
    /// A stored answer's fields, shared with its cache and written before `headers`' fields (but
    /// those the server writes itself), which then hold only the fields added to them: a response
    /// replaying them carries one reference, where a copy of every field was made and destroyed.
    /// ``allHeaders`` reads both.
    public var storedHeaders: HTTPHeaders?

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: HTTPBody = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// ``storedHeaders``' fields, then ``headers``' fields: every field the head carries but those
    /// the server writes itself. The stored fields' wire form is kept (appending keeps it).
    public var allHeaders: HTTPHeaders {
        guard var all = storedHeaders else { return headers }
        all.reserveCapacity(all.count + headers.count)
        for field in headers { all.add(name: field.name, value: field.value) }
        return all
    }

    /// `true` when ``storedHeaders`` or ``headers`` hold a field named `name` (without case).
    public func holdsField(named name: String) -> Bool {
        headers.contains(name) || storedHeaders?.contains(name) == true
    }

    /// Creates a response with a complete body.
    public init(status: Int, headers: HTTPHeaders = [:], bytes: [UInt8]) {
        self.init(status: status, headers: headers, body: .bytes(bytes))
    }
}
