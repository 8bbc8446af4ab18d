/// The values a request path gave a route's variables, by name, in the route's order.
///
/// A route has a handful of variables (mostly one), so they are kept as a short list and found by
/// a scan: no hashing and no hash table per request, which a dictionary costs on every match.
/// The first capture is held inline, so that a route with one variable allocates no list.
public struct RouteCaptures: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private var first: (name: String, value: String)?
    /// The captures after the first.
    private var more: [(name: String, value: String)] = []

    /// The captured `(name, value)` pairs, in the order of the route's variables.
    public var pairs: [(name: String, value: String)] { first.map { [$0] + more } ?? [] }

    /// No captures.
    public init() {}

    /// Captures from a literal, e.g. `["city": "london"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// The value captured for `name`; setting replaces it (or adds it).
    public subscript(name: String) -> String? {
        // Compared through the optional, without binding the first pair (a copy of both strings).
        get {
            if first?.name == name { return first?.value }
            return more.first { $0.name == name }?.value
        }
        set {
            if first?.name == name {
                if let newValue {
                    self.first = (name, newValue)
                } else {
                    self.first = more.isEmpty ? nil : more.removeFirst()
                }
                return
            }
            let index = more.firstIndex { $0.name == name }
            switch (index, newValue) {
            case (let index?, let value?): more[index].value = value
            case (let index?, nil): more.remove(at: index)
            case (nil, let value?): if first == nil { first = (name, value) } else { more.append((name, value)) }
            case (nil, nil): break
            }
        }
    }

    /// The same names with the same values, in any order.
    public static func == (lhs: RouteCaptures, rhs: RouteCaptures) -> Bool {
        let pairs = lhs.pairs
        return pairs.count == rhs.pairs.count && pairs.allSatisfy { rhs[$0.name] == $0.value }
    }
}
