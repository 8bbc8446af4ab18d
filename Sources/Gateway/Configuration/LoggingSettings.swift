import RDS

/// How the gateway logs.
public struct LoggingSettings: Sendable, Equatable, Decodable {
    /// The lowest level written: `debug`, `info`, `warning` or `error`.
    public var level: LogLevel

    /// Creates log settings.
    public init(level: LogLevel = .info) { self.level = level }

    enum CodingKeys: String, CodingKey, CaseIterable { case level }

    /// Decodes the settings, rejecting unknown keys and unknown level names.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decodeIfPresent(String.self, forKey: .level) ?? "info"
        guard let level = LogLevel(name: name) else {
            throw DecodingError.dataCorruptedError(
                forKey: .level, in: container,
                debugDescription: "expected one of: \(LogLevel.allCases.map(\.name).joined(separator: ", "))")
        }
        self.level = level
    }
}
