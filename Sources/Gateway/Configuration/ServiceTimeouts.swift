import Foundation

/// How long the gateway waits for an upstream, in seconds.
public struct ServiceTimeouts: Sendable, Equatable, Decodable {
    /// Until the connection is open.
    public var connect: TimeInterval
    /// Until the first byte of the answer arrives.
    public var firstByte: TimeInterval
    /// Until the whole answer has arrived.
    public var total: TimeInterval

    /// Creates timeouts.
    public init(connect: TimeInterval = 2, firstByte: TimeInterval = 5, total: TimeInterval = 10) {
        self.connect = connect
        self.firstByte = firstByte
        self.total = total
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case connect, firstByte, total }

    /// Decodes the timeouts, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ServiceTimeouts()
        connect = try container.decodeIfPresent(TimeInterval.self, forKey: .connect) ?? defaults.connect
        firstByte = try container.decodeIfPresent(TimeInterval.self, forKey: .firstByte) ?? defaults.firstByte
        total = try container.decodeIfPresent(TimeInterval.self, forKey: .total) ?? defaults.total
    }
}
