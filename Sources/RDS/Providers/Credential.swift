/// A secret sent to an upstream, and where it goes.
///
/// Its descriptions (`description`, `debugDescription`, `dump`) never show ``value``, so an
/// interpolation by mistake does not leak it.
public struct Credential: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// Where a credential is sent.
    public enum Placement: Sendable, Hashable {
        /// As the value of this request header, e.g. `Authorization` or `X-API-Key`.
        case header(String)
        /// As this query parameter, e.g. `appid`.
        case queryParameter(String)
    }

    /// Where it is sent.
    public let placement: Placement
    /// The secret, exactly as sent (e.g. `Bearer eyJ…`).
    public let value: String

    /// Creates a credential.
    public init(placement: Placement, value: String) {
        self.placement = placement
        self.value = value
    }

    /// `Credential(header Authorization, redacted)`.
    public var description: String {
        switch placement {
        case .header(let name): "Credential(header \(name), redacted)"
        case .queryParameter(let name): "Credential(query \(name), redacted)"
        }
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A mirror without the value.
    public var customMirror: Mirror { Mirror(self, children: ["placement": placement]) }
}
