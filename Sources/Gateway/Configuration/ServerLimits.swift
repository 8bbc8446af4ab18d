/// The limits the gateway's HTTP server enforces on each client.
public struct ServerLimits: Sendable, Equatable, Decodable {
    /// The largest request head (request line and headers), in bytes.
    public var maxHeaderBytes: Int
    /// The largest request body, in bytes.
    public var maxBodyBytes: Int
    /// The most connections open at once.
    public var maxConnections: Int

    /// Creates limits.
    public init(maxHeaderBytes: Int = 16_384, maxBodyBytes: Int = 1_048_576, maxConnections: Int = 1_024) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxConnections = maxConnections
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case maxHeaderBytes, maxBodyBytes, maxConnections }

    /// Decodes the limits, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ServerLimits()
        maxHeaderBytes = try container.decodeIntegerIfPresent(forKey: .maxHeaderBytes) ?? defaults.maxHeaderBytes
        maxBodyBytes = try container.decodeIntegerIfPresent(forKey: .maxBodyBytes) ?? defaults.maxBodyBytes
        maxConnections = try container.decodeIntegerIfPresent(forKey: .maxConnections) ?? defaults.maxConnections
    }
}
