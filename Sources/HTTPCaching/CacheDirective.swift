/// One directive of a `Cache-Control` field, e.g. `max-age=60` or `no-cache`.
public struct CacheDirective: Sendable, Hashable {
    /// The directive's name, lower-cased.
    public let name: String
    /// Its argument, unquoted and unescaped; `nil` when it had none.
    public let value: String?

    /// Creates a directive; `name` is lower-cased.
    public init(name: String, value: String? = nil) {
        self.name = name.lowercased()
        self.value = value
    }
}
