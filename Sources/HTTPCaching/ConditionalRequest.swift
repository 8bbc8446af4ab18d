import Foundation
import HTTP1

/// Evaluates a client's preconditions against a stored representation, in the order of
/// RFC 9110 §13.2.2: `If-Match` (strong comparison), else `If-Unmodified-Since`; then
/// `If-None-Match` (weak comparison), else `If-Modified-Since` (GET and HEAD only). Callers
/// evaluate only for a 2xx representation (§13.2.1).
public enum ConditionalRequest {
    /// The outcome of the preconditions.
    public enum Outcome: Sendable, Hashable {
        /// Send the representation (or the range asked for).
        case proceed
        /// 304 Not Modified.
        case notModified
        /// 412 Precondition Failed.
        case preconditionFailed
    }

    /// The outcome for `headers` of a GET or HEAD against a representation with `etag` / `lastModified`.
    public static func evaluate(_ headers: HTTPHeaders, etag: String?, lastModified: String?) -> Outcome {
        guard holdsPrecondition(headers) else { return .proceed }
        if let list = headers["If-Match"] {
            guard let etag, matches(list, etag, weak: false) else { return .preconditionFailed }
        } else if let since = headers["If-Unmodified-Since"].flatMap(HTTPDateParser.parse),
            let modified = lastModified.flatMap(HTTPDateParser.parse), modified > since
        {
            return .preconditionFailed
        }
        return isNotModified(headers, etag: etag, lastModified: lastModified) ? .notModified : .proceed
    }

    /// `true` when the client already holds the representation with `etag` / `lastModified`,
    /// so a 304 answers it (`If-Modified-Since` counts only without `If-None-Match`).
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

    /// `true` when a field name of `headers` has the length of a precondition field's and starts
    /// with `If-`: most requests carry none, and then none of the four is looked up by name. The
    /// length is told first, by a mask (most names have another).
    private static func holdsPrecondition(_ headers: HTTPHeaders) -> Bool {
        // `If-Match`, `If-None-Match`, `If-Modified-Since`, `If-Unmodified-Since`.
        let lengths: UInt64 = 1 << 8 | 1 << 13 | 1 << 17 | 1 << 19
        return headers.fields.withUnsafeBufferPointer { fields in
            fields.contains { field in
                let length = field.name.utf8.count
                // A masking shift: the smart `<<` with an `Int` amount is generic code.
                guard length < 64, lengths & (1 &<< UInt64(length)) != 0 else { return false }
                var name = field.name.utf8.makeIterator()
                let (i, f, dash) = (name.next() ?? 0, name.next() ?? 0, name.next() ?? 0)
                return i | 0x20 == UInt8(ascii: "i") && f | 0x20 == UInt8(ascii: "f") && dash == UInt8(ascii: "-")
            }
        }
    }

    /// `true` when the entity-tag `list` holds `etag` or is `*`: weak comparison (RFC 9110
    /// §8.8.3.2) by default; strong comparison refuses weak tags on either side.
    public static func matches(_ list: String, _ etag: String, weak: Bool = true) -> Bool {
        let opaque = { (tag: Substring) in tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
        return list.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)[...]
            if tag == "*" { return true }
            if weak { return opaque(tag) == opaque(etag[...]) }
            return !tag.hasPrefix("W/") && tag == etag[...]
        }
    }
}
