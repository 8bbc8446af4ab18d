/// Renders coding paths as the dotted key paths that configuration errors show.
enum KeyPath {
    /// `repositories.weather.warmUp[0]` from its components (array indices already as `[0]`).
    static func render(_ components: [String]) -> String {
        components.reduce(into: "") { result, component in
            if component.hasPrefix("[") || result.isEmpty {
                result += component
            } else {
                result += "." + component
            }
        }
    }

    /// The key path of a `Codable` coding path.
    static func render(_ codingPath: [any CodingKey]) -> String {
        render(codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue })
    }
}
