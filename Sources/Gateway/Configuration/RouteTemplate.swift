import Foundation

/// A route such as `/weather/{city}` or `/api/{path...}`: literal segments, `{name}` variables
/// that capture one segment, and an optional final `{name...}` catch-all that captures the rest.
///
/// Captured values stay exactly as the client sent them (percent-encoding preserved), so they
/// reach the upstream unchanged; a `.` or `..` segment (also percent-encoded) is rejected.
public struct RouteTemplate: Sendable, Equatable, CustomStringConvertible {
    /// One segment of a template.
    public enum Segment: Sendable, Equatable {
        /// A segment that must equal this text.
        case literal(String)
        /// A segment captured under this name.
        case variable(String)
        /// The rest of the path (zero or more segments) captured under this name.
        case catchAll(String)
    }

    /// The segments, in order.
    public let segments: [Segment]
    /// The template as written.
    public let description: String

    /// Parses a template.
    /// - Throws: ``RouteTemplateError`` saying what is wrong with the text.
    public init(parsing text: String) throws(RouteTemplateError) {
        guard text.hasPrefix("/") else { throw RouteTemplateError("must start with \"/\"") }
        let parts = text == "/" ? [] : text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var segments: [Segment] = []
        var names: Set<String> = []
        for (index, part) in parts.enumerated() {
            let segment = try Self.parseSegment(part)
            switch segment {
            case .literal: break
            case .variable(let name), .catchAll(let name):
                guard names.insert(name).inserted else {
                    throw RouteTemplateError("the name \"\(name)\" is used twice")
                }
            }
            if case .catchAll = segment, index != parts.count - 1 {
                throw RouteTemplateError("a catch-all {\(part.dropFirst().dropLast())} must be the last segment")
            }
            segments.append(segment)
        }
        self.segments = segments
        self.description = text
    }

    /// The names of the variables and the catch-all, in order.
    public var captureNames: [String] {
        segments.compactMap { segment in
            switch segment {
            case .literal: nil
            case .variable(let name), .catchAll(let name): name
            }
        }
    }

    private static func parseSegment(_ part: Substring) throws(RouteTemplateError) -> Segment {
        guard !part.isEmpty else { throw RouteTemplateError("empty segment (\"//\" or a trailing \"/\")") }
        if part.first == "{" || part.last == "}" {
            guard part.first == "{", part.last == "}", part.count > 2 else {
                throw RouteTemplateError("\"\(part)\": a variable takes a whole segment, like {city}")
            }
            var name = part.dropFirst().dropLast()
            let isCatchAll = name.hasSuffix("...")
            if isCatchAll { name = name.dropLast(3) }
            guard Self.isIdentifier(name) else {
                throw RouteTemplateError(
                    "\"\(part)\": a variable name is letters, digits and \"_\", not starting with a digit")
            }
            return isCatchAll ? .catchAll(String(name)) : .variable(String(name))
        }
        guard part.utf8.allSatisfy(Self.isPathByte), !part.contains("{"), !part.contains("}") else {
            throw RouteTemplateError("\"\(part)\" holds characters not allowed in a path segment")
        }
        guard !isDotSegment(part) else {
            throw RouteTemplateError("\"\(part)\": \".\" and \"..\" segments are not allowed")
        }
        return .literal(String(part))
    }

    static func isIdentifier(_ name: Substring) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return name.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }
    }

    /// RFC 3986 `pchar` bytes (unreserved, sub-delims, `:`, `@`, `%`).
    static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-._~!$&'()*+,;=:@%".utf8.contains(byte)
        }
    }

    /// `true` for `.` and `..`, also percent-encoded (`%2e`, `%2E`).
    static func isDotSegment(_ segment: Substring) -> Bool {
        // Checked on every request segment: most are ruled out without Foundation (one to six
        // bytes, `.` to `%2e%2e`, starting with `.` or `%`).
        guard let first = segment.utf8.first, first == UInt8(ascii: ".") || first == UInt8(ascii: "%"),
            segment.utf8.count <= 6
        else { return false }
        let decoded = segment.lowercased().replacingOccurrences(of: "%2e", with: ".")
        return decoded == "." || decoded == ".."
    }
}
