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

    /// Walks the template and the path's segments together, one segment at a time: no array of
    /// segments, and no dictionary unless something is captured (this runs twice per request).
    private func match(_ path: Substring, capturing: Bool) -> RouteMatch {
        guard path.utf8.first == UInt8(ascii: "/") else { return .noMatch }
        // What follows the last slash read; `nil` once every segment is taken (none for `/`).
        var rest: Substring? = path.utf8.count > 1 ? path[path.utf8.index(after: path.startIndex)...] : nil
        var captures: [String: String] = [:]
        for segment in segments {
            if case .catchAll(let name) = segment {
                var remaining = rest
                while let current = remaining {
                    let (part, next) = Self.firstSegment(of: current)
                    if Self.isUnsafeSegment(part) { return .rejected(String(part)) }
                    remaining = next
                }
                if capturing { captures[name] = String(rest ?? "") }
                return .matched(captures)
            }
            guard let current = rest else { return .noMatch }
            let (part, next) = Self.firstSegment(of: current)
            rest = next
            switch segment {
            case .literal(let text):
                guard Self.bytesEqual(part, text) else { return .noMatch }
            case .variable(let name):
                guard !part.isEmpty else { return .noMatch }
                if Self.isUnsafeSegment(part) { return .rejected(String(part)) }
                if capturing { captures[name] = String(part) }
            case .catchAll:
                break
            }
        }
        return rest == nil ? .matched(captures) : .noMatch
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

    /// The first segment of `path` (what precedes its first `/`, possibly empty) and what follows
    /// that slash, `nil` when there is none.
    private static func firstSegment(of path: Substring) -> (segment: Substring, rest: Substring?) {
        let utf8 = path.utf8
        // Searched in the string's own bytes (a generic search over the view costs ten times more).
        let offset = utf8.withContiguousStorageIfAvailable { $0.firstIndex(of: UInt8(ascii: "/")) }
            ?? utf8.firstIndex(of: UInt8(ascii: "/")).map { utf8.distance(from: utf8.startIndex, to: $0) }
        guard let offset else { return (path, nil) }
        let slash = utf8.index(utf8.startIndex, offsetBy: offset)
        return (path[..<slash], path[utf8.index(after: slash)...])
    }

    /// `true` when `segment` holds exactly the bytes of `text`, compared in their own storage.
    private static func bytesEqual(_ segment: Substring, _ text: String) -> Bool {
        guard segment.utf8.count == text.utf8.count else { return false }
        return segment.utf8.withContiguousStorageIfAvailable { lhs in
            text.utf8.withContiguousStorageIfAvailable { rhs in lhs.elementsEqual(rhs) }
        }.flatMap { $0 } ?? segment.utf8.elementsEqual(text.utf8)
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
