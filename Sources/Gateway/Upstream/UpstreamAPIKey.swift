import RDS

/// The API key an ``HTTPService`` adds to every upstream call, and where it goes.
public struct UpstreamAPIKey: Sendable {
    /// Where the key is sent.
    public enum Placement: Sendable, Hashable {
        /// As the value of this request header, e.g. `X-API-Key`.
        case header(String)
        /// As this query parameter, e.g. `appid`.
        case queryParameter(String)
    }

    /// Supplies the key on every call.
    public let provider: any APIKeyProvider
    /// Where the key is sent.
    public let placement: Placement

    /// Creates the API key settings.
    public init(provider: any APIKeyProvider, placement: Placement) {
        self.provider = provider
        self.placement = placement
    }
}
