/// The upstream side of a route, e.g. `/data/weather/{city}` or `/{path...}`, optionally with a
/// query such as `/search?q={name}`: text with placeholders filled from a ``RouteTemplate``'s captures.
///
/// A capture in the path part goes in as the client sent it (its percent-encoding kept; the route
/// has already refused traversal). A capture in the query part goes in as one value: decoded
/// once, then percent-encoded (see ``PercentCoding/queryValue(_:)``), so `/search/paris&admin=true`
/// fills `/echo?q={q}` as `/echo?q=paris%26admin%3Dtrue`.
public struct UpstreamPathTemplate: Sendable, Equatable, CustomStringConvertible {
    private enum Part: Sendable, Equatable {
        case text(String)
        case capture(String)
        case queryValue(String)
    }

    private let parts: [Part]
    /// The template as written.
    public let description: String

    /// Parses a template whose placeholders must all be captures of `route`.
    /// - Throws: ``RouteTemplateError`` naming the first problem.
    public init(parsing text: String, route: RouteTemplate) throws(RouteTemplateError) {
        guard text.hasPrefix("/") else { throw RouteTemplateError("must start with \"/\"") }
        var parts: [Part] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            let prefix = rest[..<open]
            guard !prefix.contains("}") else { throw RouteTemplateError("unbalanced \"}\"") }
            if !prefix.isEmpty { parts.append(.text(String(prefix))) }
            let inQuery = text[..<open].contains("?")
            guard let close = rest[open...].firstIndex(of: "}") else { throw RouteTemplateError("unclosed \"{\"") }
            var name = rest[rest.index(after: open)..<close]
            if name.hasSuffix("...") { name = name.dropLast(3) }
            guard route.captureNames.contains(String(name)) else {
                let known = route.captureNames.map { "{\($0)}" }.joined(separator: ", ")
                throw RouteTemplateError(
                    "{\(name)} is not captured by the route \(route); it captures: \(known.isEmpty ? "nothing" : known)"
                )
            }
            parts.append(inQuery ? .queryValue(String(name)) : .capture(String(name)))
            rest = rest[rest.index(after: close)...]
        }
        guard !rest.contains("}") else { throw RouteTemplateError("unbalanced \"}\"") }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        self.parts = parts
        self.description = text
    }

    /// The upstream path (and query, if the template has one) with the captured values in place.
    public func expand(_ captures: RouteCaptures) -> String {
        var result = ""
        for part in parts {
            switch part {
            case .text(let text): result += text
            case .capture(let name): result += captures[name] ?? ""
            case .queryValue(let name): result += PercentCoding.queryValue(captures[name] ?? "")
            }
        }
        return result
    }
}
