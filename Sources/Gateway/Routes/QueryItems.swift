import Foundation

/// The parameters of a query string such as `a=1&b=two+words`, in order, with raw and decoded forms.
struct QueryItems: Sendable {
    /// One `name=value` pair exactly as sent.
    struct Item: Sendable, Equatable {
        /// The name as sent (percent-encoded).
        let name: Substring
        /// The value as sent (percent-encoded), empty when there was no `=`.
        let value: Substring
    }

    /// The pairs in order; empty pairs (`&&`) are dropped.
    let items: [Item]

    /// Splits `query` (the part after `?`, or `nil`).
    init(_ query: Substring?) {
        items = (query ?? "").split(separator: "&").map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return Item(name: pair, value: "") }
            return Item(name: pair[..<equals], value: pair[pair.index(after: equals)...])
        }
    }

    /// The decoded value of the first parameter whose decoded name is `name` (`+` means space).
    subscript(name: String) -> String? {
        items.first { Self.decode($0.name) == name }.map { Self.decode($0.value) }
    }

    /// The decoded values of every parameter whose decoded name is `name`, in order.
    func values(named name: String) -> [String] {
        items.filter { Self.decode($0.name) == name }.map { Self.decode($0.value) }
    }

    /// Percent-decodes a query component, reading `+` as a space.
    static func decode(_ component: Substring) -> String {
        component.replacingOccurrences(of: "+", with: " ").removingPercentEncodingOrSelf
    }
}
