import Foundation
import HTTP1
import HTTPCaching

/// Builds the demo upstream's answers: JSON with `Cache-Control` and an ETag, 304 when the
/// client's `If-None-Match` matches, and small problem bodies for failures.
enum DemoResponse {
    /// `value` as JSON, or 304 when the request already holds it; `tags` go in `Surrogate-Key`.
    static func json(_ value: some Encodable, maxAge: Int, tags: [String] = [], request: HTTPRequest) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)).map(Array.init) ?? []
        var response = cacheable(
            body, contentType: "application/json", etag: etag(of: body), maxAge: maxAge, status: 200, request: request)
        if !tags.isEmpty { response.headers["Surrogate-Key"] = tags.joined(separator: " ") }
        return response
    }

    /// A stored note, or 304 when the request already holds it.
    static func note(_ note: DemoNote, id: String, status: Int, request: HTTPRequest) -> HTTPResponse {
        cacheable(
            note.body, contentType: note.contentType, etag: "\"note-\(id.hashStable)-\(note.revision)\"", maxAge: 30,
            status: status, request: request)
    }

    /// A problem body with `status`; never cacheable.
    static func problem(status: Int, _ detail: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        headers["Content-Type"] = "application/problem+json"
        headers["Cache-Control"] = "no-store"
        let object: [String: Any] = ["status": status, "title": "demo upstream", "detail": detail]
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map(Array.init) ?? []
        return HTTPResponse(status: status, headers: headers, bytes: body)
    }

    private static func cacheable(
        _ body: [UInt8], contentType: String, etag: String, maxAge: Int, status: Int, request: HTTPRequest
    ) -> HTTPResponse {
        let headers: HTTPHeaders = ["Cache-Control": "max-age=\(maxAge)", "ETag": etag]
        let isRead = request.method == .get || request.method == .head
        if isRead, ConditionalRequest.isNotModified(request.headers, etag: etag, lastModified: nil) {
            return HTTPResponse(status: 304, headers: headers)
        }
        var full = headers
        full["Content-Type"] = contentType
        return HTTPResponse(status: status, headers: full, bytes: body)
    }

    /// A strong ETag from the body's FNV-1a hash.
    static func etag(of body: [UInt8]) -> String { "\"\(String(body.fnv1a, radix: 16))\"" }
}
