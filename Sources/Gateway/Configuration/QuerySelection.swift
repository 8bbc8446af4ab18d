/// The query parameters that take part in a cache key: all of them (`"*"`) or the named ones.
public enum QuerySelection: Sendable, Equatable, Decodable {
    /// Every parameter.
    case all
    /// Only these parameters; the others are dropped before the upstream call.
    case only([String])

    /// Decodes `"*"` or an array of names.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let names = try? container.decode([String].self) {
            self = .only(names)
        } else if let star = try? container.decode(String.self), star == "*" {
            self = .all
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected \"*\" or an array of query parameter names")
        }
    }
}
