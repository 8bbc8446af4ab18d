/// The limits the gateway's HTTP server enforces on each client.
public struct ServerLimits: Sendable, Equatable, Decodable {
    /// The largest request head (request line and headers), in bytes.
    public var maxHeaderBytes: Int
    /// The largest request body, in bytes.
    public var maxBodyBytes: Int
    /// The most connections open at once (past it, the longest-idle one is closed to make room,
    /// and a small reserve keeps `/health`, `/health/ready` and `/metrics` answering). Default:
    /// the open-files limit (raised to its hard limit at start-up) minus a margin, see
    /// ``OpenFileLimit/connectionBudget``.
    public var maxConnections: Int
    /// Seconds a Server-Sent Events subscriber may stay behind (events queued it has not read)
    /// before it is closed; it skips to the newest state meanwhile. 0 < value <= 86,400; default 30.
    public var sseMaxLag: Double

    /// Creates limits.
    public init(
        maxHeaderBytes: Int = 16_384, maxBodyBytes: Int = 1_048_576, maxConnections: Int? = nil,
        sseMaxLag: Double = 30
    ) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxConnections = maxConnections ?? OpenFileLimit.current.connectionBudget
        self.sseMaxLag = sseMaxLag
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case maxHeaderBytes, maxBodyBytes, maxConnections, sseMaxLag }

    /// Decodes the limits, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ServerLimits()
        maxHeaderBytes = try container.decodeIntegerIfPresent(forKey: .maxHeaderBytes) ?? defaults.maxHeaderBytes
        maxBodyBytes = try container.decodeIntegerIfPresent(forKey: .maxBodyBytes) ?? defaults.maxBodyBytes
        maxConnections = try container.decodeIntegerIfPresent(forKey: .maxConnections) ?? defaults.maxConnections
        sseMaxLag = try container.decodeIfPresent(Double.self, forKey: .sseMaxLag) ?? defaults.sseMaxLag
    }
}
