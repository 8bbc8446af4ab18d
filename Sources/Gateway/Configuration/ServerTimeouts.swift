import Foundation

/// The gateway server's timeouts, in seconds.
public struct ServerTimeouts: Sendable, Equatable, Decodable {
    /// How long a keep-alive connection may sit idle.
    public var idle: TimeInterval
    /// How long a client may take to send a whole request.
    public var request: TimeInterval
    /// How long in-flight requests may run on after a shutdown signal.
    public var shutdownGrace: TimeInterval

    /// Creates timeouts.
    public init(idle: TimeInterval = 60, request: TimeInterval = 30, shutdownGrace: TimeInterval = 10) {
        self.idle = idle
        self.request = request
        self.shutdownGrace = shutdownGrace
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case idle, request, shutdownGrace }

    /// Decodes the timeouts, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ServerTimeouts()
        idle = try container.decodeIfPresent(TimeInterval.self, forKey: .idle) ?? defaults.idle
        request = try container.decodeIfPresent(TimeInterval.self, forKey: .request) ?? defaults.request
        shutdownGrace =
            try container.decodeIfPresent(TimeInterval.self, forKey: .shutdownGrace) ?? defaults.shutdownGrace
    }
}
