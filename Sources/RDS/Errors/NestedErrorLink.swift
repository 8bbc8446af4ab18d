/// An error link holding the next one, so a chain encodes as nested JSON objects.
public final class NestedErrorLink: Sendable, Encodable {
    /// This link.
    public let link: ErrorLink
    /// The wrapped link, or `nil` at the end of the chain.
    public let inner: NestedErrorLink?

    /// Creates a nested link.
    public init(link: ErrorLink, inner: NestedErrorLink?) {
        self.link = link
        self.inner = inner
    }

    private enum CodingKeys: String, CodingKey { case code, message, details, inner }

    /// Encodes `code`, `message`, `details` (when not empty) and `inner` (`null` at the end).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(link.code, forKey: .code)
        try container.encode(link.message, forKey: .message)
        if !link.details.isEmpty { try container.encode(link.details, forKey: .details) }
        try container.encode(inner, forKey: .inner)
    }
}
