import HTTP1

/// A single `Range: bytes=…` request on a stored representation (RFC 9110 §14).
///
/// Only one byte range is served as 206; several ranges, other units, a malformed field or an
/// `If-Range` that does not match (strong comparison, or a date equal to `Last-Modified`) give the
/// whole representation; a well-formed range that misses the body gives 416.
public enum ByteRange: Sendable, Hashable {
    /// Send the whole representation (200).
    case full
    /// Send `lower...upper` of the body (206).
    case partial(lower: Int, upper: Int)
    /// 416 Range Not Satisfiable.
    case unsatisfiable

    /// The range `headers` ask of a body of `length` bytes whose validators are `etag` / `lastModified`.
    public static func evaluate(_ headers: HTTPHeaders, length: Int, etag: String?, lastModified: String?) -> ByteRange {
        guard let field = headers["Range"] else { return .full }
        if let condition = headers["If-Range"]?.trimmingCharacters(in: .whitespaces) {
            let matches =
                condition.hasPrefix("\"") || condition.hasPrefix("W/")
                ? etag.map { !condition.hasPrefix("W/") && condition == $0 && !$0.hasPrefix("W/") } ?? false
                : lastModified.map { $0 == condition } ?? false
            guard matches else { return .full }
        }
        let text = field.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes=") else { return .full }
        let specs = text.dropFirst(6).split(separator: ",", omittingEmptySubsequences: false)
        guard specs.count == 1, let spec = specs.first?.trimmingCharacters(in: .whitespaces),
            let dash = spec.firstIndex(of: "-")
        else { return .full }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]
        guard first.allSatisfy(\.isASCIIDigit), last.allSatisfy(\.isASCIIDigit), !(first.isEmpty && last.isEmpty)
        else { return .full }
        if first.isEmpty {
            // suffix: the last N bytes
            guard let count = Int(last), count > 0, length > 0 else { return .unsatisfiable }
            return .partial(lower: max(0, length - count), upper: length - 1)
        }
        guard let lower = Int(first) else { return .unsatisfiable }
        let upper = last.isEmpty ? length - 1 : min(Int(last) ?? .max, length - 1)
        guard lower < length else { return .unsatisfiable }
        guard lower <= upper else { return last.isEmpty ? .unsatisfiable : .full }
        return .partial(lower: lower, upper: upper)
    }
}

extension Character {
    /// `0`…`9`
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
