/// The upstream's Server-Sent Events stream of changes (`services.NAME.changes`): each event's
/// `data` is `{"action": "refresh" | "invalidate" | "soft-purge", "paths": […], "tags": […]}`
/// (`refresh` when no action is named), applied to the service's repositories as a webhook is.
public struct ChangesSettings: Sendable, Equatable, Decodable {
    /// `http://host[:port]/path` of the stream.
    public var url: String

    /// Creates settings.
    public init(url: String) { self.url = url }

    enum CodingKeys: String, CodingKey, CaseIterable { case url }

    /// Decodes the settings, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        url = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .url)
    }
}
