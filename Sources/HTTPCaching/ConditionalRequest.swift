import Foundation
import HTTP1

/// Evaluates a client's `If-None-Match` / `If-Modified-Since` against a stored representation
/// (RFC 9110 §13.1.2 and §13.1.3; `If-None-Match` wins when both are sent).
public enum ConditionalRequest {
    /// `true` when the client already holds the representation with `etag` / `lastModified`,
    /// so a 304 answers it.
    public static func isNotModified(_ headers: HTTPHeaders, etag: String?, lastModified: String?) -> Bool {
        if let candidates = headers["If-None-Match"] {
            guard let etag else { return false }
            return matches(candidates, etag)
        }
        guard let since = headers["If-Modified-Since"].flatMap(HTTPDateParser.parse),
            let modified = lastModified.flatMap(HTTPDateParser.parse)
        else { return false }
        return modified <= since
    }

    /// `true` when the `If-None-Match` list holds `etag` (weak comparison) or is `*`.
    public static func matches(_ list: String, _ etag: String) -> Bool {
        let opaque = { (tag: Substring) in tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
        return list.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)[...]
            return tag == "*" || opaque(tag) == opaque(etag[...])
        }
    }
}
