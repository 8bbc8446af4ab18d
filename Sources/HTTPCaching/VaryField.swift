import HTTP1

/// The `Vary` field of a response (RFC 9111 §4.1): the request fields whose values selected it.
public struct VaryField: Sendable, Hashable {
    /// The request field names the response varies on, lower-cased, `*` left out.
    public let names: Set<String>
    /// `true` when a member is `*`: no later request can be matched to the response.
    public let isWildcard: Bool

    /// Reads every `Vary` line of a response's `headers` (comma lists, any case, any whitespace).
    public init(_ headers: HTTPHeaders) {
        var names: Set<String> = []
        var isWildcard = false
        for member in headers.values(for: "Vary").flatMap({ $0.split(separator: ",") }) {
            let name = member.trimmingWhitespace().lowercased()
            if name == "*" {
                isWildcard = true
            } else if !name.isEmpty {
                names.insert(name)
            }
        }
        self.names = names
        self.isWildcard = isWildcard
    }

    /// A request field value as a variant key holds it: the whitespace around its list members
    /// trimmed (RFC 9111 §4.1 allows normalising it); case is kept, as the value also goes upstream.
    public static func normalized(_ value: String) -> String {
        value.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingWhitespace() }.joined(separator: ", ")
    }

    /// `true` when the response varies on one of `fields` (lower-cased names), or on `*`.
    public func varies(onAnyOf fields: Set<String>) -> Bool {
        isWildcard || !names.isDisjoint(with: fields)
    }
}
