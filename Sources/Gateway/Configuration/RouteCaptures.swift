/// The values a request path gave a route's variables, by name, in the route's order.
///
/// A route has a handful of variables (mostly one), so they are kept as a short list and found by
/// a scan: no hashing and no hash table per request, which a dictionary costs on every match.
public struct RouteCaptures: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The captured `(name, value)` pairs, in the order of the route's variables.
    public private(set) var pairs: [(name: String, value: String)]

    /// No captures.
    public init() { pairs = [] }

    /// Captures from a literal, e.g. `["city": "london"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        pairs = []
        for (name, value) in elements { self[name] = value }
    }

    /// The value captured for `name`; setting replaces it (or adds it).
    public subscript(name: String) -> String? {
        get { pairs.first { $0.name == name }?.value }
        set {
            let index = pairs.firstIndex { $0.name == name }
            switch (index, newValue) {
            case (let index?, let value?): pairs[index].value = value
            case (let index?, nil): pairs.remove(at: index)
            case (nil, let value?): pairs.append((name, value))
            case (nil, nil): break
            }
        }
    }

    /// The same names with the same values, in any order.
    public static func == (lhs: RouteCaptures, rhs: RouteCaptures) -> Bool {
        lhs.pairs.count == rhs.pairs.count && lhs.pairs.allSatisfy { rhs[$0.name] == $0.value }
    }
}
