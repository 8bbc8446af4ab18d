import HTTP1
import RDS

/// One upstream answer as the gateway keeps it: status, the headers that describe the content,
/// and the body bytes. It is the `Value` of every gateway repository.
///
/// Only the fields in ``keptHeaderNames`` survive (in the upstream's order; `Link` keeps an
/// API's pagination, unchanged: its targets are the upstream's URLs); hop-by-hop fields,
/// `Set-Cookie` and everything else are dropped when a representation is made, so a cached
/// answer can be replayed to any client.
///
/// A representation also carries a *write*: for ``HTTPService/save(_:for:)`` set ``method`` to
/// `PUT`, `PATCH` or `POST` (see ``write(_:body:contentType:)``); the body and `Content-Type` are
/// forwarded. Fetched and stored representations always have `method == nil`.
public struct Representation: Sendable, Hashable {
    /// The header fields a representation keeps, lower-cased.
    public static let keptHeaderNames: Set<String> = [
        "content-type", "content-language", "content-encoding", "cache-control", "etag", "last-modified", "vary",
        "location", "expires", "link",
    ]

    /// The HTTP status the upstream answered.
    public let status: Int
    /// The kept header fields, in the upstream's order.
    public let headers: HTTPHeaders
    /// The body.
    public let body: [UInt8]
    /// For a write handed to ``HTTPService/save(_:for:)``: the method to forward (`nil` means `PUT`).
    /// Always `nil` on fetched representations.
    public let method: HTTPMethod?

    /// Creates a representation, keeping only the fields named in ``keptHeaderNames``.
    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = [], method: HTTPMethod? = nil) {
        self.status = status
        self.headers = HTTPHeaders(headers.fields.filter { Self.keptHeaderNames.contains($0.name.lowercased()) })
        self.body = body
        self.method = method
    }

    /// A write to forward with ``HTTPService/save(_:for:)``: `method` with `body` and its `contentType`.
    public static func write(_ method: HTTPMethod, body: [UInt8], contentType: String?) -> Representation {
        var headers = HTTPHeaders()
        if let contentType { headers["Content-Type"] = contentType }
        return Representation(status: 0, headers: headers, body: body, method: method)
    }

    /// The `Content-Type` field, if any.
    public var contentType: String? { headers["Content-Type"] }

    /// The `ETag` and `Last-Modified` fields as validators.
    public var validators: Validators {
        Validators(etag: headers["ETag"], lastModified: headers["Last-Modified"])
    }
}
