extension RouteTemplate {
    /// Matches a request path (without its query) and returns the captured values.
    ///
    /// A variable needs a non-empty segment; a catch-all takes the rest of the path, which may be
    /// empty. Values keep their percent-encoding. A captured segment that could walk or split an
    /// upstream path is rejected (see ``isUnsafeSegment(_:)``).
    public func match(_ path: Substring) -> RouteMatch {
        match(path, capturing: true)
    }

    /// Like ``match(_:)``, but a fitting path gives `.matched([:])` (no captures): tells which
    /// route a request belongs to without building its captures (classifying requests for
    /// metrics and logs).
    public func matchShape(_ path: Substring) -> RouteMatch {
        match(path, capturing: false)
    }

    /// Matches in the path's own bytes (copied once when it has no contiguous storage), through
    /// the substring's own `withUTF8`: its view's `withContiguousStorageIfAvailable` runs unspecialised.
    private func match(_ path: Substring, capturing: Bool) -> RouteMatch {
        var bytes = path
        return bytes.withUTF8 { match(bytes: $0, capturing: capturing) }
    }

    /// Walks the template and the path's bytes together, one segment at a time: no array of
    /// segments, and no string unless something is captured.
    private func match(bytes path: UnsafeBufferPointer<UInt8>, capturing: Bool) -> RouteMatch {
        guard path.first == UInt8(ascii: "/") else { return .noMatch }
        // Where what follows the last slash read starts; `nil` once every segment is taken (none for `/`).
        var rest: Int? = path.count > 1 ? 1 : nil
        var captures = RouteCaptures()
        for segment in segments {
            if case .catchAll(let name) = segment {
                var remaining = rest
                while let start = remaining {
                    let end = Self.segmentEnd(path, from: start)
                    if Self.isUnsafeSegment(path[start..<end]) { return .rejected(Self.text(path[start..<end])) }
                    remaining = end < path.count ? end + 1 : nil
                }
                if capturing { captures[name] = rest.map { Self.text(path[$0...]) } ?? "" }
                return .matched(captures)
            }
            guard let start = rest else { return .noMatch }
            let end = Self.segmentEnd(path, from: start)
            let part = path[start..<end]
            rest = end < path.count ? end + 1 : nil
            switch segment {
            case .literal(let text):
                guard Self.bytesEqual(part, text) else { return .noMatch }
            case .variable(let name):
                guard !part.isEmpty else { return .noMatch }
                if Self.isUnsafeSegment(part) { return .rejected(Self.text(part)) }
                if capturing { captures[name] = Self.text(part) }
            case .catchAll:
                break
            }
        }
        return rest == nil ? .matched(captures) : .noMatch
    }

    /// Where the segment starting at `start` ends: the index of the next `/`, or the path's end.
    private static func segmentEnd(_ path: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        path[start...].firstIndex(of: UInt8(ascii: "/")) ?? path.count
    }

    /// The text of some of a path's bytes.
    private static func text(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self)
    }

    /// ``isUnsafeSegment(_:)`` for a segment's bytes; most segments (`london`, `42`) hold none of
    /// the bytes it looks for and cost one scan.
    private static func isUnsafeSegment(_ segment: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let backslash = UInt8(ascii: "\\")
        guard segment.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: ".") || $0 == backslash })
        else { return false }
        return isUnsafeSegment(text(segment)[...])
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

    /// `true` when `segment` holds exactly the bytes of `text`.
    private static func bytesEqual(_ segment: Slice<UnsafeBufferPointer<UInt8>>, _ text: String) -> Bool {
        segment.count == text.utf8.count && UnsafeBufferPointer(rebasing: segment).starts(withBytesOf: text)
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
