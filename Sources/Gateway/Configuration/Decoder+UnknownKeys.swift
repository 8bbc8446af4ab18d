extension Decoder {
    /// Throws when the JSON object being decoded holds a key that `Keys` does not list.
    ///
    /// `Codable` ignores unknown keys; a misspelt option would then be a silent no-op. The error
    /// names the key path and the keys that are allowed.
    func rejectUnknownKeys<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws {
        let container = try self.container(keyedBy: ConfigurationKey.self)
        let known = Set(Keys.allCases.map(\.stringValue))
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
        where !known.contains(key.stringValue) {
            let allowed = Keys.allCases.map(\.stringValue).joined(separator: ", ")
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath + [key],
                    debugDescription: "unknown key; expected one of: \(allowed)"))
        }
    }
}
