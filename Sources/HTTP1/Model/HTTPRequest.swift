/// An HTTP request: what the server hands to a handler, and what the client sends.
public struct HTTPRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The request target exactly as sent, e.g. `/weather/london?units=metric`.
    public var target: String {
        didSet { queryMark = Self.queryMark(of: target) }
    }
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body, de-chunked.
    public var body: [UInt8]
    /// The peer's address (e.g. `127.0.0.1` or `::1`), set by the server; `nil` for outgoing requests.
    public var remoteAddress: String?
    /// What the server's handler noted in ``HTTPHandler/respondImmediately(to:)`` for its own
    /// ``HTTPHandler/handle(_:)`` (the gateway: the matched route and cache key), so the `async`
    /// path need not work it out again; `nil` otherwise. The server never reads it. An object: a
    /// request's copies then retain one reference, and the handler tells its own note by a class
    /// cast (any value behind an existential was copied and destroyed through its type's witnesses).
    public var handlerNote: (any AnyObject & Sendable)?

    /// Creates a request.
    public init(
        method: HTTPMethod, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:],
        body: [UInt8] = [], remoteAddress: String? = nil
    ) {
        self.method = method
        self.target = target
        self.queryMark = Self.queryMark(of: target)
        self.version = version
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The target's path, before any `?`. (Without a query, the whole target as a substring:
    /// cutting it by its own bounds would check those bounds, ~150 instructions a read.)
    public var path: Substring {
        queryMark.map { target[..<$0] } ?? Substring(target)
    }

    /// The target's query, after the first `?`, or `nil` when there is none.
    public var query: Substring? {
        queryMark.map { target[target.utf8.index(after: $0)...] }
    }

    /// Where the first `?` of ``target`` is, found once whenever the target is set: the path and
    /// query are read several times per request (routing, the key, the log line).
    private var queryMark: String.Index?

    /// Where the first `?` of `target` is: searched byte by byte (a `Character` search costs
    /// grapheme breaking).
    private static func queryMark(of target: String) -> String.Index? {
        target.firstIndex(ofASCII: UInt8(ascii: "?"))
    }
}
