import Foundation

extension UpstreamTimeouts: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case connect, firstByte, total }

    /// Decodes `{"connect": s, "firstByte": s, "total": s}` (each optional), rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = UpstreamTimeouts()
        self.init(
            connect: try container.decodeIfPresent(TimeInterval.self, forKey: .connect) ?? defaults.connect,
            firstByte: try container.decodeIfPresent(TimeInterval.self, forKey: .firstByte) ?? defaults.firstByte,
            total: try container.decodeIfPresent(TimeInterval.self, forKey: .total) ?? defaults.total)
    }
}
