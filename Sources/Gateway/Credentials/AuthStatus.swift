/// How a service's token is doing, for `/health/ready`: `pending` until the first token request
/// has ended, then `ok` or `failing` after each request (with the cause's code when failing).
public struct AuthStatus: Sendable, Hashable {
    /// The three states.
    public enum State: String, Sendable, Hashable {
        /// No token request has ended yet.
        case pending
        /// The last token request succeeded.
        case ok
        /// The last token request failed.
        case failing
    }

    /// The state.
    public var state: State
    /// When failing, the code of the cause: the token endpoint's OAuth2 error (`invalid_client`),
    /// the transport's (`transport_refused`) or `upstream_unavailable` for an unreadable secret.
    public var error: String?

    /// Creates a status.
    public init(_ state: State, error: String? = nil) {
        self.state = state
        self.error = error
    }
}
