extension RouteTemplate {
    /// Matches a request path (without its query) and returns the captured values.
    ///
    /// A variable needs a non-empty segment; a catch-all takes the rest of the path, which may be
    /// empty. Values keep their percent-encoding. A captured segment that could walk or split an
    /// upstream path is rejected (see ``isUnsafeSegment(_:)``).
    public func match(_ path: Substring) -> RouteMatch {
        match(path, capturing: true)
    }

    /// Like ``match(_:)``, but a fitting path gives `.matched([:])`: tells which route a request
    /// belongs to without building its captures (classifying requests for metrics and logs).
    public func matchShape(_ path: Substring) -> RouteMatch {
        match(path, capturing: false)
    }

    private func match(_ path: Substring, capturing: Bool) -> RouteMatch {
        guard path.utf8.first == UInt8(ascii: "/") else { return .noMatch }
        let parts = Self.segments(of: path)
        var captures: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal(let text):
                guard index < parts.count, parts[index].utf8.elementsEqual(text.utf8) else { return .noMatch }
            case .variable(let name):
                guard index < parts.count, !parts[index].isEmpty else { return .noMatch }
                if Self.isUnsafeSegment(parts[index]) { return .rejected(String(parts[index])) }
                if capturing { captures[name] = String(parts[index]) }
            case .catchAll(let name):
                let rest = parts.dropFirst(index)
                if let unsafe = rest.first(where: Self.isUnsafeSegment) { return .rejected(String(unsafe)) }
                if capturing { captures[name] = rest.joined(separator: "/") }
                return .matched(captures)
            }
        }
        return parts.count == segments.count ? .matched(captures) : .noMatch
    }

    /// `true` for a captured segment an upstream (or a proxy in front of it) could read as a
    /// step out of its folder or as a different path: `.` or `..`, also followed by `;params`
    /// (`..;`), percent-encoded or double-encoded in any case (`%2e`, `%252E`); or a segment
    /// holding `\`, an encoded `/`, `\` or NUL (`%2f`, `%5c`, `%00`), at any encoding depth.
    /// Encoded four levels deep is refused outright.
    static func isUnsafeSegment(_ segment: Substring) -> Bool {
        let backslash = UInt8(ascii: "\\")
        // Most segments (`london`, `42`) hold none of these bytes and cost one scan.
        guard segment.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: ".") || $0 == backslash })
        else { return false }
        var bytes = Array(segment.utf8)
        for _ in 0..<4 {
            if bytes.contains(where: { $0 == UInt8(ascii: "/") || $0 == backslash || $0 == 0 }) { return true }
            let head = bytes.prefix { $0 != UInt8(ascii: ";") }
            if !head.isEmpty, head.count <= 2, head.allSatisfy({ $0 == UInt8(ascii: ".") }) { return true }
            guard bytes.contains(UInt8(ascii: "%")) else { return false }
            let decoded = PercentCoding.decode(bytes)
            if decoded == bytes { return false }
            bytes = decoded
        }
        return true
    }

    /// The segments of `path` (which starts with `/`): none for `/`, else what lies between
    /// slashes, empty ones included. Split byte by byte: this runs twice per request.
    private static func segments(of path: Substring) -> [Substring] {
        var parts: [Substring] = []
        guard path.utf8.count > 1 else { return parts }
        var start = path.utf8.index(after: path.startIndex)
        while true {
            let end = path.utf8[start...].firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex
            parts.append(path[start..<end])
            guard end != path.endIndex else { return parts }
            start = path.utf8.index(after: end)
        }
    }

    /// `true` when some path matches both templates.
    public func collides(with other: RouteTemplate) -> Bool {
        Self.collide(segments[...], other.segments[...])
    }

    private static func collide(_ lhs: ArraySlice<Segment>, _ rhs: ArraySlice<Segment>) -> Bool {
        switch (lhs.first, rhs.first) {
        case (nil, nil), (.catchAll, _), (_, .catchAll): true
        case (nil, _), (_, nil): false
        case (.literal(let a), .literal(let b)): a == b && collide(lhs.dropFirst(), rhs.dropFirst())
        default: collide(lhs.dropFirst(), rhs.dropFirst())
        }
    }
}
