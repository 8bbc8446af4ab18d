import Foundation

/// The repository routes, found by the first segment of a request's path: a path is matched only
/// against the routes whose template can fit it (those starting with that literal segment, and
/// those starting with a variable or a catch-all), in their configured order. A request for the
/// fifth route is then not first matched against four others; a miss costs one binary search.
///
/// Equivalent to trying every route in order: a template whose first segment is another literal
/// never fits, nor rejects, such a path (``RouteTemplate/match(_:)`` compares literals first).
struct RouteTable: Sendable {
    /// The distinct first literals of the templates, in byte order, each with its candidates:
    /// the routes starting with it and the open ones, in configured order.
    private let literals: [(bytes: [UInt8], candidates: [RouteResources])]
    /// The routes whose template starts with a variable or a catch-all (or has no segment): the
    /// candidates of a path whose first segment is no literal of any template.
    private let open: [RouteResources]

    /// Indexes `routes` (in the order they are tried).
    init(_ routes: [RouteResources]) {
        var byLiteral: [[UInt8]: [RouteResources]] = [:]
        for route in routes {
            guard let literal = Self.firstLiteral(of: route.route.template) else { continue }
            byLiteral[literal, default: []].append(route)
        }
        let open = routes.filter { Self.firstLiteral(of: $0.route.template) == nil }
        literals = byLiteral.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { literal in
            let candidates = routes.filter { route in
                Self.firstLiteral(of: route.route.template).map { $0 == literal } ?? true
            }
            return (literal, candidates)
        }
        self.open = open
    }

    /// The routes that may fit `path`, in configured order.
    func candidates(for path: Substring) -> [RouteResources] {
        guard !literals.isEmpty else { return open }
        // Through the substring's own `withUTF8` (in place; a copy only for a path without
        // contiguous UTF-8): its view's `withContiguousStorageIfAvailable` runs unspecialised.
        var bytes = path
        let found = bytes.withUTF8 { index(ofFirstSegmentOf: $0) }
        return found.map { literals[$0].candidates } ?? open
    }

    /// The position in ``literals`` of the first segment of the path in `bytes`, by binary search.
    private func index(ofFirstSegmentOf bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        let rest = UnsafeBufferPointer(rebasing: bytes[1...])
        let segment = UnsafeBufferPointer(rebasing: rest[..<(rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.count)])
        var low = 0
        var high = literals.count
        while low < high {
            let middle = (low + high) / 2
            let order = Self.compare(segment, literals[middle].bytes)
            if order == 0 { return middle }
            if order < 0 { high = middle } else { low = middle + 1 }
        }
        return nil
    }

    /// Byte order of `segment` and `literal`: negative, zero or positive.
    private static func compare(_ segment: UnsafeBufferPointer<UInt8>, _ literal: [UInt8]) -> Int {
        literal.withUnsafeBufferPointer { literal in
            let common = min(segment.count, literal.count)
            if common > 0, let a = segment.baseAddress, let b = literal.baseAddress {
                let order = memcmp(a, b, common)
                if order != 0 { return Int(order) }
            }
            return segment.count - literal.count
        }
    }

    /// The bytes of `template`'s first segment when it is a literal.
    private static func firstLiteral(of template: RouteTemplate) -> [UInt8]? {
        guard case .literal(let text) = template.segments.first else { return nil }
        return Array(text.utf8)
    }
}
