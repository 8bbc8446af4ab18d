/// Which query parameters of a client request take part in the cache key and are forwarded.
public enum QueryParameterRule: Sendable, Hashable {
    /// Every parameter.
    case all
    /// None: the query is dropped.
    case none
    /// Only the parameters with these (percent-decoded, case-sensitive) names.
    case only(Set<String>)

    /// `true` when the parameter named `name` is kept.
    public func admits(_ name: String) -> Bool {
        switch self {
        case .all: true
        case .none: false
        case .only(let names): names.contains(name)
        }
    }
}
