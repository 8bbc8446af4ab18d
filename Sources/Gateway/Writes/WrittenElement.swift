import Foundation

/// What a write tried to write, as the write process state and a failed write's Problem Details
/// show it: method, content type, size, a bounded excerpt of the body, and the idempotency key.
struct WrittenElement: Encodable, Sendable, Equatable {
    /// The longest excerpt of the body, in bytes.
    static let maxExcerptBytes = 256

    /// The method forwarded (`PUT`, `PATCH`, `POST` or `DELETE`).
    let method: String
    /// The body's `Content-Type`, if any.
    let contentType: String?
    /// The body's size in bytes.
    let size: Int
    /// The first ``maxExcerptBytes`` bytes of the body as text (invalid UTF-8 replaced).
    let excerpt: String
    /// `true` when the excerpt is shorter than the body.
    let truncated: Bool
    /// The `Idempotency-Key` the write carried, if any.
    let idempotencyKey: String?

    /// Describes the write `element` (see ``Representation/write(_:body:contentType:idempotencyKey:)``).
    init(_ element: Representation) {
        let prefix = element.body.prefix(Self.maxExcerptBytes)
        method = element.method?.rawValue ?? "PUT"
        contentType = element.contentType
        size = element.body.count
        excerpt = String(decoding: prefix, as: UTF8.self)
        truncated = prefix.count < element.body.count
        idempotencyKey = element.headers["Idempotency-Key"]
    }

    /// The element as a JSON object (for `JSONSerialization` documents).
    var jsonObject: [String: Any] {
        var object: [String: Any] = ["method": method, "size": size, "excerpt": excerpt, "truncated": truncated]
        object["contentType"] = contentType
        object["idempotencyKey"] = idempotencyKey
        return object
    }
}
